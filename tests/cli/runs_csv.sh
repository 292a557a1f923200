# profdb runs --format csv; the default database ./profdb.db when no --db
# and no $PROFDB_DB
. "$HERE/query_setup.sh"
unset PROFDB_DB
$PROFDB runs --format csv; echo "exit $?"
$PROFDB ingest -q --run only trace.json
$PROFDB runs --format csv | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/TIME/'
