# steps grouped by the ClickHouse server (lib/clickhouse/ch_steps.c): the
# busy time is a sweep over sorted start/end events there, a merge of sorted
# intervals in SQLite; the top kernel is the first (-total, name) pair there.
# testdata/clickhouse/steps_ties.json, by hand: step 1 (host span 0-100 us)
# ran zeta 10-30, eta 30-50 (starts as zeta ends), gamma 20-20 (no length),
# eta 50-60 (starts as eta ends), zeta 55-65, mu 12-15 (inside zeta), omega
# 80-85.  Union: 10-65 and 80-85 = 60 us busy; span 10-85 = 75 us (80%);
# 7 kernels, 20+20+0+10+10+3+5 = 68 us; zeta and eta tie at 30 us: the top
# kernel is the least name, eta.  With --name '*eta*' (zeta and eta): busy
# 10-65 = 55 us of span 10-65 (100%), 60 us in 4 kernels.  The launch table
# is taken away first: a pull of the kernel rows would fail, so these
# answers were grouped on the server.
. "$HERE/clickhouse_lib.sh"
ch_start 1
$PROFDB ingest -q --db a.db --run ties "$PROFDB_TESTDATA/clickhouse/steps_ties.json" || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
ch_query 1 "RENAME TABLE prof.launch TO prof.launch_away" || exit 1
$PROFDB steps --db "$URL" --format csv --unit us
$PROFDB steps --db "$URL" --format csv --unit us --name '*eta*'
echo "--- the same on the file:"
$PROFDB steps --db a.db --format csv --unit us
$PROFDB steps --db a.db --format csv --unit us --name '*eta*'
