# A filter that selects nothing says why (issue 16 "Tables"), and --by step
# rows come in step order.  Hand-made trace (testdata/query/README.md):
# runs overlap and twice, rank 0 only, steps 1..2; "nostep" is the same
# trace without its ProfilerStep#N events (so its kernels carry no step).
. "$HERE/query_setup.sh"
python3 - trace.json nostep.json <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t["traceEvents"] = [e for e in t["traceEvents"] if not e.get("name", "").startswith("ProfilerStep#")]
json.dump(t, open(sys.argv[2], "w"))
PY
$PROFDB ingest -q --db q.db --run nostep nostep.json
echo "-- kernels --run overlap --rank 3"
$PROFDB kernels --run overlap --rank 3 | tail -1
echo "-- kernels --steps 5..9 (every run)"
$PROFDB kernels --steps 5..9 | grep note
echo "-- steps --run twice --rank 0 --steps 7"
$PROFDB steps --run twice --rank 0 --steps 7 | tail -1
echo "-- kernels --run nostep --per-step"
$PROFDB kernels --run nostep --per-step | tail -1
echo "-- kernels --run overlap --name 'nosuch*' --format csv: stdout, then stderr"
$PROFDB kernels --run overlap --name 'nosuch*' --format csv 2>err.txt
cat err.txt
echo "-- kernels --run overlap --by step --format csv (steps 1, 2 in order; step 2 has the larger total)"
$PROFDB kernels --run overlap --by step --format csv
