# Acceptance: profdb bandwidth over corpus Kineto traces equals an
# independent computation over the raw JSON (analyses_ref.py: gpu_memcpy /
# gpu_memset events, args "bytes", direction from the name, step through the
# launching runtime call), per step and --by rank: HTA trace_filter (2 ranks,
# HtoD / DtoH / DtoD / memset), HTA trace_diff control (2022) and the mi250
# ROCm trace (copies without a byte count: sized 0, no GB/s).
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
for t in trace_filter trace_diff/control/control.json.gz amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz; do
  rm -f m.db
  echo "${t%%/*}:"
  $PROFDB ingest -q --db m.db --run r "$H/$t" || exit 1
  $PROFDB bandwidth --db m.db --format csv --unit ns >b.csv || exit 1
  $PROFDB bandwidth --db m.db --format csv --unit ns --by rank >br.csv || exit 1
  src=$H/$t
  [ "$t" = trace_filter ] && src="$H/trace_filter/sampled_rank-0.json.gz,$H/trace_filter/sampled_rank-1.json.gz"
  python3 "$HERE/analyses_ref.py" bandwidth kineto "$src" b.csv || exit 1
  python3 "$HERE/analyses_ref.py" bandwidth kineto "$src" br.csv rank || exit 1
done
