# profdb kernels --format md: a Markdown table with units in the header,
# never shortened; --by name,step
. "$HERE/query_setup.sh"
COLUMNS=40 $PROFDB kernels --run overlap --format md
echo
$PROFDB kernels --run overlap --format md --by name,step --top 3
