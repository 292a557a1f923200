# profdb apis --format json is valid against schemas/apis.schema.json, for
# profiled, wall-clock and summary-only rows alike
D=$PROFDB_TESTDATA
$PROFDB ingest -q --db a.db --run npu --tag backend=npu --tag api=torch.matmul \
  "$D/ascend/level1/rank0_ascend_pt" || exit 1
$PROFDB ingest -q --db a.db --run cpu --tag backend=cpu "$D/bench/cpu_ops.csv" || exit 1
$PROFDB ingest -q --db a.db --run pyb "$D/bench/pytest_benchmark.json" || exit 1
$PROFDB apis --db a.db --format json >apis.json 2>/dev/null || exit 1
python3 "$HERE/json_schema_check.py" "$HERE/../../schemas/apis.schema.json" apis.json || exit 1
python3 -c 'import json; print(sorted({r["source"] for r in json.load(open("apis.json"))}))'
