# Per-repeat under a step filter (doc/definitions.md "Per-repeat averages and step
# filters"), on the hand-made trace of testdata/query (2 steps): run
# "overlap" has repeats 2 from its steps, run "twice" repeats 4 from
# --repeats.  Expected values, worked out by hand from the table in
# testdata/query/README.md:
#  - no --steps: per_repeat = total / repeats: twice gemm<128> 50 / 4 = 12.5
#  - --steps 1..2 selects 2 steps: twice gemm<128> 50 / 2 = 25 (--repeats
#    is not used under a step filter), add 15 / 2 = 7.5, memcpy 10 / 2 = 5
#  - --steps 2 selects 1 step: overlap gemm<128> 30 / 1 = 30, add 10, memcpy 10
#  - --per-step counts the selected steps, not only those the --name'd
#    kernels ran in: gemm<64> ran in step 1 only: {15, 0}, mean 7.5,
#    stddev sqrt(((15-7.5)^2 + (0-7.5)^2) / 1) = 10.606602, max_step 1
#  - summary --steps 2: repeats 1, kernels 3, device 30 + 10 + 10 = 50,
#    elapsed 110..150 = 40, host self 80 + 10 + 5 + 5 = 100; --rank 0
#    --steps 1: kernels 3, device 20 + 15 + 5 = 40, elapsed 10..55 = 45,
#    host self 85 + 10 + 5 = 100
#  - diff --steps 2: base and new per repeat are the step's totals on both
#    sides (gemm<128> 30), and the repeats warning (2 vs 4) is gone: under
#    --steps both divide by 1 step; without --steps it is there
. "$HERE/query_setup.sh"
echo "-- kernels --run twice (no step filter)"
$PROFDB kernels --run twice --format csv
echo "-- kernels --run twice --steps 1..2"
$PROFDB kernels --run twice --steps 1..2 --format csv
echo "-- kernels --run overlap --steps 2"
$PROFDB kernels --run overlap --steps 2 --format csv
echo "-- kernels --run overlap --per-step --name 'void gemm_kernel<float, 64>*'"
$PROFDB kernels --run overlap --per-step --name 'void gemm_kernel<float, 64>*' --format csv
echo "-- summary --run twice --steps 2"
$PROFDB summary --run twice --steps 2 --format csv
echo "-- summary --run twice --rank 0 --steps 1"
$PROFDB summary --run twice --rank 0 --steps 1 --format csv
echo "-- report overlap twice --steps 2 (scope, key, verdict, base, new)"
$PROFDB report overlap twice --steps 2 --format csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["scope"], r["key"], r["verdict"], r["base"], r["new"], sep=" | ")'

echo "-- report overlap twice (no step filter): warnings (on stderr: csv rows are data)"
$PROFDB report overlap twice --format csv 2>&1 >/dev/null | grep 'warning'
