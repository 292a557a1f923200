# profdb launches --format json, each --by valid against
# schemas/launches.schema.json; errors: a bad --by, --kind, --name with
# --by step (exit 2)
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db h.db --run kin "$PROFDB_TESTDATA/analyses/trace.json" || exit 1
for b in name stream step; do
  $PROFDB launches --db h.db --by $b --format json >$b.json && cat $b.json
  check_json $b.json launches
done
$PROFDB launches --db h.db --by kernel; echo "exit $?"
$PROFDB launches --db h.db --kind kernel; echo "exit $?"
$PROFDB launches --db h.db --by step --name 'k*'; echo "exit $?"
