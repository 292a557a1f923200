# profdb kernels as a table: the hand-made trace (testdata/query/README.md),
# units per column, a run column when several runs are shown, names
# shortened in the middle to fit COLUMNS, --wide, --top
. "$HERE/query_setup.sh"
$PROFDB kernels --run overlap
echo
$PROFDB kernels --top 1
echo
COLUMNS=60 $PROFDB kernels --run overlap --top 2 --sort name
echo
$PROFDB kernels --run overlap --wide --top 1 --unit ms
