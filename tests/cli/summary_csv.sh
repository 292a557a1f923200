# profdb summary --format csv
. "$HERE/query_setup.sh"
$PROFDB summary --format csv
$PROFDB summary --format csv --run overlap --unit ms
