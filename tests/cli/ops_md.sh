# profdb ops --format md ('|' in names would be escaped)
. "$HERE/query_setup.sh"
$PROFDB ops --run overlap --format md
