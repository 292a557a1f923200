# profdb runs --run NAME lists only that run (issue 12, item 10), and an
# unknown run is the error every other query command gives (exit 1, nothing
# on stdout).  Expected by hand: query_setup.sh stores runs "overlap" (id 1)
# and "twice" (id 2) from the same trace.
. "$HERE/query_setup.sh"
$PROFDB runs --run twice --format csv | cut -d, -f1,2
$PROFDB runs --run overlap --run twice --format csv | cut -d, -f1,2
$PROFDB runs --run nosuch --format csv; echo "exit $?"
$PROFDB kernels --run nosuch --format csv; echo "exit $?"
