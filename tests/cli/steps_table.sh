# profdb steps as a table: host span as wall, device span, busy time as the
# union of overlapping kernel intervals (testdata/query/README.md)
. "$HERE/query_setup.sh"
$PROFDB steps --run overlap
echo
$PROFDB steps
echo
$PROFDB steps --run overlap --steps 2 --name 'add*'
