# profdb ops as a table: host self/total, device self/total and the kernels
# each operator launched, linked by External id (testdata/query/README.md)
. "$HERE/query_setup.sh"
$PROFDB ops --run overlap
echo
COLUMNS=80 $PROFDB ops --run overlap --name 'aten::*' --sort device_self --top 2
echo
$PROFDB ops --top 1
echo
$PROFDB ops --run overlap --name 'ProfilerStep*' --step-rows
