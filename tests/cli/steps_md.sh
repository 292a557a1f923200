# profdb steps --format md
. "$HERE/query_setup.sh"
$PROFDB steps --run overlap --format md
