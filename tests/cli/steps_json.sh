# profdb steps --format json, valid against schemas/steps.schema.json
. "$HERE/query_setup.sh"
$PROFDB steps --format json >s.json && cat s.json
check_json s.json steps
