# profdb steps --format csv, also in ns
. "$HERE/query_setup.sh"
$PROFDB steps --run overlap --format csv
$PROFDB steps --run overlap --format csv --unit ns --kind kernel
