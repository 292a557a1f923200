# Acceptance: profdb launches (--by name, stream, step) over corpus Kineto
# traces equals an independent computation over the raw JSON
# (launches_ref.py: launch calls by name and correlation id, exact
# decimals, statistics.quantiles, its own queue and coverage sweeps): HTA mi250 ROCm,
# HTA nccl_data (2024, relative timestamps, Synchronize calls), and the 2-rank
# trace_filter set.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
for t in amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz nccl_parser_config/nccl_data.json.gz \
         trace_filter; do
  rm -f l.db
  echo "${t%%/*}:"
  $PROFDB ingest -q --db l.db --run r "$H/$t" || exit 1
  for b in name stream step; do
    $PROFDB launches --db l.db --by $b --format csv --unit ns >$b.csv || exit 1
  done
  src=$H/$t
  [ "$t" = trace_filter ] && src="$H/trace_filter/sampled_rank-0.json.gz,$H/trace_filter/sampled_rank-1.json.gz"
  python3 "$HERE/launches_ref.py" "$src" name.csv stream.csv step.csv || exit 1
done
