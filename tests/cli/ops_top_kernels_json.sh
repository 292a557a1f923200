# ops --format json: top_kernels is an array of {name, total_us, share}
# (issue 16), exact microseconds as the other JSON times; csv keeps the flat
# "name (62.5%); ..." text.  testdata/output/ops_top.json, by hand: aten::mm
# launched gemm_a 12.345 us, gemm "b\c" 2.5 us, gemm_c 0.125 us and gemm_d
# 0.001 us (sum 14.971 us); the top three with shares 12345/14971,
# 2500/14971, 125/14971; ProfilerStep* launched none: [].
set -e
$PROFDB ingest -q --db t.db --run t "$PROFDB_TESTDATA/output/ops_top.json"
$PROFDB ops --db t.db --format json >o.json
python3 "$HERE/json_schema_check.py" "$HERE/../../schemas/ops.schema.json" o.json
python3 - o.json <<'PY'
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))}
want = [("gemm_a", 12.345, 12345 / 14971), ('gemm "b\\c"', 2.5, 2500 / 14971),
        ("gemm_c", 0.125, 125 / 14971)]
got = rows["aten::mm"]["top_kernels"]
assert [(k["name"], k["total_us"]) for k in got] == [w[:2] for w in want], got
for k, w in zip(got, want):
    assert abs(k["share"] - w[2]) < 1e-14, (k, w)
assert rows["ProfilerStep*"]["top_kernels"] == [], rows["ProfilerStep*"]
print("aten::mm top_kernels as hand-computed: %s" % "; ".join("%s %s us %.4f" % (k["name"], k["total_us"], k["share"]) for k in got))
PY
$PROFDB ops --db t.db --format csv 2>/dev/null
