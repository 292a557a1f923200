# The straggler rule (doc/analyses.md "ranks") on the hand-made 4-rank Ascend
# export testdata/analyses/ranks4 (make_ranks4.py; worked out in its
# README): the late rank is the one the others wait on, in ranks and in
# collectives --by step alike.  Step 1: rank 2 is 5.5 us late, 5.5 % of the
# median collective time: below the 10 % effect, nobody is flagged (its
# compute z is 3.71 from a MAD of 1 us).  Step 2: rank 2 is 20 us late
# (25 %): flagged; rank 1 computes the most (z 4.59, B under its
# collective) but arrived first.  The hand-worked values are written below
# and compared; then the full tables.
$PROFDB ingest -q --db r.db --run four "$PROFDB_TESTDATA/analyses/ranks4" || exit 1
got() { cut -d, -f2,3,7,10; }
$PROFDB ranks --db r.db --format csv --unit us | got >got.csv || exit 1
cat >want.csv <<'W'
rank,step,wait_us,straggler
0,1,6,no
0,2,20,no
1,1,5,no
1,2,20,no
2,1,0,no
2,2,0,yes
3,1,7,no
3,2,20,no
W
diff want.csv got.csv || exit 1
# --by rank: communication 180, 179, 154, 181; median 179.5, rank 2 25.5 late (14.2 %)
$PROFDB ranks --db r.db --by rank --format csv --unit us | cut -d, -f2,6,9 >got.csv || exit 1
printf 'rank,wait_us,straggler\n0,26,no\n1,25,no\n2,0,yes\n3,27,no\n' >want.csv
diff want.csv got.csv || exit 1
# collectives: step 1 names no rank (5.5 % < 10 %), step 2 rank 2
$PROFDB collectives --db r.db --by step --format csv --unit us | cut -d, -f2,6,7,9,10 >got.csv || exit 1
printf 'step,total_min_us,total_median_us,skew_us,waited_on_rank\n1,94,99.5,7,\n2,60,80,20,2\n' >want.csv
diff want.csv got.csv || exit 1
# a 5 % effect flags step 1's rank 2 too (5.53 % >= 5)
$PROFDB ranks --db r.db --steps 1 --threshold 5 --format csv --unit us | got
$PROFDB ranks --db r.db --format csv --unit us
