# profdb runs --format json, valid against schemas/runs.schema.json
. "$HERE/query_setup.sh"
$PROFDB runs --format json >r.json
sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/TIME/' r.json
check_json r.json runs
