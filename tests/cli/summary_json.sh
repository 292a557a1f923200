# profdb summary --format json: one object for one selected run (one --run,
# or a database with one run), an array otherwise; both valid against
# schemas/summary.schema.json
. "$HERE/query_setup.sh"
$PROFDB summary --run overlap --format json >one.json && cat one.json
$PROFDB summary --format json >all.json && cat all.json
$PROFDB summary --run overlap --run twice --format json >two.json && cat two.json
$PROFDB ingest -q --db single.db --run solo trace.json
$PROFDB summary --db single.db --format json >solo.json && cat solo.json
check_json one.json summary
check_json all.json summary
check_json two.json summary
check_json solo.json summary
python3 -c 'import json,sys; d=json.load(open("one.json")); print(sorted(d))'
