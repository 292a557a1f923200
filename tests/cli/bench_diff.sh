# Backend against backend, per API: profdb diff --base tag:backend=cpu
# --new tag:backend=npu --by tag:api over wall-clock runs (a CSV, a
# JSON-lines file, and a pytest-benchmark file with summary statistics
# only) equals tests/cli/bench_diff_ref.py's independent decision; then a
# profiled Ascend dump tagged backend=npu api=torch.matmul against the
# wall-clock CPU run: compared, and flagged in every format.
B=$PROFDB_TESTDATA/bench
$PROFDB ingest -q --db d.db --run cpu --tag backend=cpu "$B/cpu_ops.csv" || exit 1
$PROFDB ingest -q --db d.db --run npu "$B/npu_ops.jsonl" || exit 1
$PROFDB ingest -q --db d.db --run npu-sum --tag backend=npu "$B/npu_summary.json" || exit 1
$PROFDB diff --db d.db --base tag:backend=cpu --new tag:backend=npu --by tag:api --format csv \
  --unit ns >d.csv 2>/dev/null || exit 1
python3 "$HERE/bench_diff_ref.py" "$B/cpu_ops.csv" "$B/npu_ops.jsonl" "$B/npu_summary.json" d.csv || exit 1
$PROFDB diff --db d.db --base tag:backend=cpu --new tag:backend=npu --by tag:api \
  --fail-on-regression --format csv >/dev/null 2>&1
echo "--fail-on-regression: exit $?"
$PROFDB diff --db d.db --base tag:backend=cpu --new tag:backend=nope --by tag:api 2>&1; echo "exit $?"
$PROFDB diff --db d.db --base cpu --new tag:backend=npu --name 'torch.m*' --by tag:api --format csv 2>/dev/null | cut -d, -f1,2
echo "== sides by tag, kernels by name: the usual diff"
$PROFDB diff --db d.db --base tag:backend=cpu --new npu --format csv 2>/dev/null | cut -d, -f1,2
echo "== profiled NPU dump against wall-clock CPU"
$PROFDB ingest -q --db p.db --run cpu --tag backend=cpu "$B/cpu_ops.csv" || exit 1
$PROFDB ingest -q --db p.db --run npu --tag backend=npu --tag api=torch.matmul \
  "$PROFDB_TESTDATA/ascend/level1/rank0_ascend_pt" || exit 1
$PROFDB diff --db p.db --base tag:backend=cpu --new tag:backend=npu --by tag:api --format csv 2>err.txt | cut -d, -f1,2,12,13
grep -c "base measured by wall clock, new by profiler" err.txt
for f in md html json junit csv; do
  # csv: the warning on stderr (rows are data only), the others in the document
  $PROFDB report --db p.db --base tag:backend=cpu --new tag:backend=npu --by tag:api --format $f >r.$f 2>e.$f || exit 1
  echo "$f: $(grep -c 'wall clock vs profiler' r.$f) flagged line(s), $(cat r.$f e.$f | grep -c 'base measured by wall clock, new by profiler') warning(s)"
done
