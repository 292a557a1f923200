# profdb sql takes its options before or after the statement, reads the
# statement from standard input when it is '-' or missing, and refuses
# --unit and a second statement with one line each (issue 16).  The counts
# are python's, from the raw trace (ops: cpu_op and user_annotation events).
set -u
T=$PROFDB_TESTDATA/kineto/nested.json
$PROFDB ingest -q --db t.db "$T" || echo "ingest failed"
python3 - "$T" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print("n\n%d" % sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")))
print("n\n%d" % sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation")))
print("n\n%d" % sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation")))
PY
$PROFDB sql "SELECT count(*) AS n FROM kernel" --db t.db --format csv
echo "SELECT count(*) AS n FROM op" | $PROFDB sql --db t.db --format csv
echo "SELECT count(*) AS n FROM op" | $PROFDB sql --format csv - --db t.db
$PROFDB sql --db t.db --unit ms "SELECT 1"; echo "exit $?"
$PROFDB sql --db t.db "SELECT 1" "SELECT 2"; echo "exit $?"
