# profdb breakdown --format json (per step and --by rank) and --format md on
# the hand-made inputs (figures: testdata/analyses/README.md); the JSON is
# valid against schemas/breakdown.schema.json
. "$HERE/query_setup.sh"
D=$PROFDB_TESTDATA/analyses
$PROFDB ingest -q --db h.db --run asc "$D/breakdown_kernel_details.csv" || exit 1
$PROFDB ingest -q --db h.db --run kin "$D/trace.json" || exit 1
$PROFDB breakdown --db h.db --format json >s.json && cat s.json
check_json s.json breakdown
$PROFDB breakdown --db h.db --format json --by rank --run kin >r.json && cat r.json
check_json r.json breakdown
$PROFDB breakdown --db h.db --format md --run asc
