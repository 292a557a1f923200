# profdb summary --format md
. "$HERE/query_setup.sh"
$PROFDB summary --format md
