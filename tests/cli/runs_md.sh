# profdb runs --format md
. "$HERE/query_setup.sh"
$PROFDB runs --format md | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/TIME/'
