# The operator-benchmark workflow end to end on the bundled files (issue 35
# item 5): ingest -> apis -> report -> diff, in the words of what was
# ingested.  A benchmark file's ingest counts repeats and sums APIs,
# repeats and elapsed time; report and diff of --by tag:api name APIs and
# per-repeat samples with their real counts, leave out the whole-run
# table (an API comparison has none), and warn only on what both sides
# record.  python3 (tests/cli/bench_workflow_ref.py, reading the files
# only) checks every number printed against its own computation.
set -e
B=$PROFDB_TESTDATA/bench
{
  $PROFDB ingest --run cpu "$B/cpu_ops.csv"
  $PROFDB ingest --run npu "$B/npu_ops.jsonl"
  $PROFDB ingest --run cuda --tag backend=cuda "$B/pytest_benchmark.json"
} | sed "s|$B/||" >ingest.txt
$PROFDB ingest -q --run npu-prof --tag backend=npu-prof --tag api=torch.matmul \
  "$PROFDB_TESTDATA/ascend/level1/rank0_ascend_pt"
cat ingest.txt
for cols in 80 120; do
  echo "== apis at COLUMNS=$cols"
  COLUMNS=$cols $PROFDB apis --run cpu --run npu --run cuda
done
$PROFDB apis --run cpu --run npu --run cuda --format csv --unit ns >apis.csv
echo "== report --format md, cpu -> npu"
$PROFDB report --base tag:backend=cpu --new tag:backend=npu --by tag:api --format md | tee r.md
echo "== diff cpu -> cuda (pytest-benchmark: a python_version tag the CSV lacks)"
COLUMNS=120 $PROFDB diff --base tag:backend=cpu --new tag:backend=cuda --by tag:api | tee d.txt
echo "== diff cpu -> a profiled run (a profiler config the CSV lacks)"
COLUMNS=120 $PROFDB diff --base tag:backend=cpu --new tag:backend=npu-prof --by tag:api 2>&1 | tee p.txt
$PROFDB diff --base tag:backend=cpu --new tag:backend=npu --by tag:api --format csv --unit ns >d.csv
echo "== checks"
python3 "$HERE/bench_workflow_ref.py" "$B" ingest.txt apis.csv r.md d.csv d.txt p.txt
