# Tables fit by importance (issue 16 "Tables"), on the hand-made trace
# (testdata/query/README.md: two steps, repeats 2).
#  - per_repeat is left out of a table when it equals total in every row
#    (--steps 2 selects one step: per_repeat = total), shown otherwise;
#  - as the width shrinks, p99, p90, stddev, avg and per_repeat go before
#    max, min and median (columns listed per width);
#  - the two gemm_kernel names (<float, 128> and <float, 64>) differ only
#    in the middle: shortened, they are numbered and listed in full.
. "$HERE/query_setup.sh"
for w in 200 100 80 60; do
  echo "-- COLUMNS=$w: $(COLUMNS=$w $PROFDB kernels --run overlap | head -1 | sed 's/   */ | /g')"
done
echo "-- --steps 2 (one step selected): $(COLUMNS=200 $PROFDB kernels --run overlap --steps 2 | head -1 | sed 's/   */ | /g')"
echo "-- COLUMNS=70:"
COLUMNS=70 $PROFDB kernels --run overlap
