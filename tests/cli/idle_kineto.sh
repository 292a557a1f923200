# Acceptance: profdb idle (per stream, and the 25 longest gaps) over corpus
# Kineto traces equals an independent computation over the raw JSON
# (analyses_ref.py): HTA trace_diff control (4 streams, 9445 gaps) and the
# 2-rank trace_filter set.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
for t in trace_diff/control/control.json.gz trace_filter; do
  rm -f i.db
  echo "${t%%/*}:"
  $PROFDB ingest -q --db i.db --run r "$H/$t" || exit 1
  $PROFDB idle --db i.db --format csv --unit ns >s.csv || exit 1
  $PROFDB idle --db i.db --format csv --unit ns --gaps 25 >g.csv || exit 1
  src=$H/$t
  [ "$t" = trace_filter ] && src="$H/trace_filter/sampled_rank-0.json.gz,$H/trace_filter/sampled_rank-1.json.gz"
  python3 "$HERE/analyses_ref.py" idle kineto "$src" s.csv g.csv || exit 1
done
