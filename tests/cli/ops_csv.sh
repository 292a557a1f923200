# profdb ops --format csv (and --by-shape, --sort name, --asc)
. "$HERE/query_setup.sh"
$PROFDB ops --run overlap --format csv
$PROFDB ops --run overlap --format csv --by-shape --sort name
$PROFDB ops --run overlap --format csv --steps 2 --sort calls --asc --unit ns
