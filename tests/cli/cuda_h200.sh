# Acceptance on two real torch 2.11 CUDA traces from an NVIDIA H200
# (testdata/kineto_cuda/, made by scripts/capture-cuda-trace.py): an MLP
# training loop (3 ProfilerSteps, 66 kernels + 3 memsets) and a bf16 4096^3
# matmul benchmark (10 ProfilerSteps).  Per run, profdb kernels, steps and ops
# (CSV, ns) are checked by cuda_h200_ref.py, which reads the raw JSON itself
# and shares no code with profdb, and against torch's own key_averages() of
# the same profiles (key_averages.json): kernel counts and device totals per
# name, op counts and device times, and Self CPU key by key, runtime calls
# (cudaLaunchKernel, ...) nested under the ops and listed as rows as torch
# does, with torch's Self CPU time total.
D=$PROFDB_TESTDATA/kineto_cuda
for r in train matmul_bench; do
  $PROFDB ingest -q --db c.db --run $r "$D/$r.pt.trace.json.gz" || exit 1
  $PROFDB kernels --db c.db --run $r --format csv --unit ns >k.csv || exit 1
  $PROFDB steps --db c.db --run $r --format csv --unit ns >s.csv || exit 1
  $PROFDB ops --db c.db --run $r --format csv --unit ns >o.csv 2>/dev/null || exit 1
  python3 "$HERE/cuda_h200_ref.py" "$D/$r.pt.trace.json.gz" "$D/key_averages.json" $r k.csv s.csv o.csv || exit 1
done
