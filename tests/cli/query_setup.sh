# query_setup.sh - sourced by the query CLI tests: q.db in $WORK holding the
# hand-made trace of testdata/query (see its README for every value worked
# out by hand) as run "overlap", and the same trace with 4 repeats as run
# "twice".  PROFDB_DB points at it, so the commands need no --db.
cp "$PROFDB_TESTDATA/query/trace.json" trace.json
$PROFDB ingest -q --db q.db --run overlap trace.json || exit 1
$PROFDB ingest -q --db q.db --run twice --repeats 4 trace.json || exit 1
export PROFDB_DB=q.db
SCHEMAS="$HERE/../../schemas"
# check_json FILE SCHEMA: validate a command's JSON output against its schema
check_json() {
  python3 "$HERE/json_schema_check.py" "$SCHEMAS/$2.schema.json" "$1" || exit 1
}
