# op_link.c's two sweeps over a correlation-id file's ops and runtime calls
# (issue 15, third round): the C merge (calls sorted in memory, ops in the
# op_run_tid index's order) and, for a file with more calls than
# PROFDB_LINK_CALLS_MAX (here 1), the SQL ORDER BY.  Both must give every
# kernel the External id the independent reference (ops_link_ref.py, as in
# ops_link_corpus) gives, and the same kernel rows as each other.
C=$PROFDB_CORPUS
for t in lin:param/et_replay/tests/inputs/linear_kineto.json.gz \
         alex:HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz \
         ctl:HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz \
         tst:HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz; do
  run=${t%%:*}
  f=$C/${t#*:}
  $PROFDB ingest -q --db c.db --run "$run" "$f" || exit 1
  PROFDB_LINK_CALLS_MAX=1 $PROFDB ingest -q --db s.db --run "$run" "$f" || exit 1
  for d in c s; do
    $PROFDB ops --db $d.db --run "$run" --format csv --unit ns >"$run.$d.csv" || exit 1
    echo "$run $d: $(python3 "$HERE/ops_link_ref.py" "$f" "$run.$d.csv" | tail -1)"
  done
done
q="SELECT id, rank, correlation, external_id, step FROM kernel ORDER BY id"
sqlite3 c.db "$q" >c.rows
sqlite3 s.db "$q" >s.rows
if cmp -s c.rows s.rows; then echo "kernel rows identical: $(wc -l <c.rows)"; else echo "kernel rows differ"; fi
echo "kernels linked to an op: $(sqlite3 c.db 'SELECT count(*) FROM kernel WHERE external_id IS NOT NULL')"
