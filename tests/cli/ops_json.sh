# profdb ops --format json, valid against schemas/ops.schema.json
. "$HERE/query_setup.sh"
$PROFDB ops --run overlap --format json >o1.json && cat o1.json
$PROFDB ops --format json --by-shape --top 1 >o2.json && cat o2.json
check_json o1.json ops
check_json o2.json ops
