# ops accounts for every device us: a row "(no operator)" holds the device
# time no operator claims (graph replays, work launched outside every op),
# and the rows' device_self adds up to summary's total_device_us.  Checked
# by ops_no_operator_ref.py, which links device events to operators from the
# raw trace itself, on a hand-made ROCm graph replay, HTA's trace_diff test
# (cudaGraphLaunch replays; External ids that are correlation ids), the
# MTIA inference trace (no device event linked), 2021 resnet50,
# TraceLens' triton and gpu-only traces (no operators: no
# row) and the H200 training trace (everything linked: no row).  A benchmark
# run has no operators and gets no row either.
C=$PROFDB_CORPUS
set -- "$PROFDB_TESTDATA/launches/graph_rocm.json" \
  "$C/HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz" \
  "$C/HolisticTraceAnalysis/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz" \
  "$C/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" \
  "$C/TraceLens/tests/traces/torch_compile_triton/trace.json.gz" \
  "$C/TraceLens/tests/traces/mi210/gpu_only_trace/gpu_only_trace.json.gz" \
  "$PROFDB_TESTDATA/kineto_cuda/train.pt.trace.json.gz"
i=0
for f in "$@"; do
  i=$((i + 1))
  $PROFDB ingest -q --db n.db --run "r$i" "$f" || exit 1
  $PROFDB summary --db n.db --run "r$i" --format csv >s.csv || exit 1
  $PROFDB ops --db n.db --run "r$i" --format csv --unit ns >o.csv 2>/dev/null || exit 1
  printf '%s: ' "${f##*/}"
  python3 "$HERE/ops_no_operator_ref.py" "$f" s.csv o.csv || exit 1
done
# the row and its share of the run's device time, as shown
$PROFDB ops --db n.db --run r1 --format csv --unit us 2>err.txt | cut -d, -f1,2,6,7,8,9
cat err.txt
# under --name no row, and the % is still of the run's device time
$PROFDB ops --db n.db --run r2 --name 'aten::mm' --format csv --unit us 2>err.txt | cut -d, -f1,6,7,9
cat err.txt
$PROFDB ingest -q --db n.db --run bench "$PROFDB_TESTDATA/bench/cpu_ops.csv" || exit 1
$PROFDB ops --db n.db --run bench --format csv 2>&1
