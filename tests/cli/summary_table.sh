# profdb summary as a table: all runs, or the ones asked for
. "$HERE/query_setup.sh"
$PROFDB summary
echo
$PROFDB summary --run twice --unit us
