# Acceptance: profdb breakdown over corpus Kineto traces without NCCL
# (HTA ns_resolution: 5 steps, memcpy/memset; HTA alexnet: no steps; HTA
# mi250 ROCm) equals an independent computation over the raw JSON
# (analyses_ref.py: exact decimals, steps through the launching runtime
# call), every column, per step and --by rank.  Traces with NCCL kernels
# are in breakdown_nccl.sh.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
for t in ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
         critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz \
         amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz; do
  rm -f k.db
  echo "${t%%/*}:"
  $PROFDB ingest -q --db k.db --run r "$H/$t" || exit 1
  $PROFDB breakdown --db k.db --format csv --unit ns >b.csv || exit 1
  $PROFDB breakdown --db k.db --format csv --unit ns --by rank >br.csv || exit 1
  python3 "$HERE/analyses_ref.py" breakdown kineto "$H/$t" b.csv || exit 1
  python3 "$HERE/analyses_ref.py" breakdown kineto "$H/$t" br.csv rank || exit 1
done
