# op_link.c's three sweeps over a correlation-id file's ops and runtime
# calls (issue 15): the C merge over the ops held in memory until the file
# ends (c: ops_held.c, the default), the C merge over the op table's rows
# in the op_run_tid index's order (t: PROFDB_OPS_HELD_BYTES=1, no op held)
# and, for a file with more calls than PROFDB_LINK_CALLS_MAX (here 1), the
# SQL ORDER BY (s: the held ops released into the table first).  All must
# give every kernel the External id the independent reference
# (ops_link_ref.py, as in ops_link_corpus) gives, and ops and kernels the
# same rows as each other.
C=$PROFDB_CORPUS
for t in lin:param/et_replay/tests/inputs/linear_kineto.json.gz \
         alex:HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz \
         ctl:HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz \
         tst:HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz; do
  run=${t%%:*}
  f=$C/${t#*:}
  $PROFDB ingest -q --db c.db --run "$run" "$f" || exit 1
  PROFDB_OPS_HELD_BYTES=1 $PROFDB ingest -q --db t.db --run "$run" "$f" || exit 1
  PROFDB_LINK_CALLS_MAX=1 $PROFDB ingest -q --db s.db --run "$run" "$f" || exit 1
  for d in c t s; do
    $PROFDB ops --db $d.db --run "$run" --format csv --unit ns >"$run.$d.csv" || exit 1
    echo "$run $d: $(python3 "$HERE/ops_link_ref.py" "$f" "$run.$d.csv" | tail -1)"
  done
done
q="SELECT id, rank, correlation, external_id, step FROM kernel ORDER BY id"
# op rows without their ids: where a file's ops are held to its end and
# linked in memory (c) their ids follow (rank, thread, start); where the
# passes over the table nest or link them (t, s), the order they closed in
qo="SELECT * FROM op"
for d in c t s; do
  sqlite3 $d.db "$q" >$d.rows
  sqlite3 $d.db "$qo" | cut -d'|' -f2- | LC_ALL=C sort >$d.ops
done
for d in c; do
  by_id=$(sqlite3 $d.db "SELECT group_concat(id) FROM (SELECT id FROM op ORDER BY id)")
  by_start=$(sqlite3 $d.db "SELECT group_concat(id) FROM (SELECT id FROM op ORDER BY run_id, rank, tid, start_ns, id)")
  if [ "$by_id" = "$by_start" ]; then echo "op ids $d: in (rank, thread, start) order"; else echo "op ids $d: NOT in (rank, thread, start) order"; fi
done
for d in t s; do
  if cmp -s c.rows $d.rows; then echo "kernel rows c = $d: $(wc -l <c.rows)"; else echo "kernel rows c != $d"; fi
  if cmp -s c.ops $d.ops; then echo "op rows c = $d: $(wc -l <c.ops)"; else echo "op rows c != $d"; fi
done
echo "kernels linked to an op: $(sqlite3 c.db 'SELECT count(*) FROM kernel WHERE external_id IS NOT NULL')"
# every runtime call with a correlation id (a launch row) is an op row too:
# counted here from the JSON, against the runtime op rows of each sweep
want=$(python3 - "$C" <<'PY'
import gzip, json, sys
n = 0
for f in ("param/et_replay/tests/inputs/linear_kineto.json.gz",
          "HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
          "HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz",
          "HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz"):
    raw = open(sys.argv[1] + "/" + f, "rb").read()
    doc = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    for e in doc["traceEvents"] if isinstance(doc, dict) else doc:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in (e.get("args") or {}):
            n += 1
print(n)
PY
)
for d in c t s; do
  got=$(sqlite3 $d.db "SELECT count(*) FROM op o JOIN str c ON c.id = o.category_id WHERE c.value = 'runtime'")
  echo "runtime op rows $d: $got, calls in the JSON: $want"
done
