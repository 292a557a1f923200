# profdb kernels: usage errors exit 2, a missing run or database exits 1, and
# values that look like SQL are just values
. "$HERE/query_setup.sh"
$PROFDB kernels --run nope 2>&1; echo "exit $?"
$PROFDB kernels --by bogus 2>&1; echo "exit $?"
$PROFDB kernels --sort 'total; DROP TABLE kernel' 2>&1; echo "exit $?"
$PROFDB kernels --steps 5..2 2>&1; echo "exit $?"
$PROFDB kernels --steps x..2 2>&1; echo "exit $?"
$PROFDB kernels --top 0 2>&1; echo "exit $?"
$PROFDB kernels --kind bogus 2>&1; echo "exit $?"
$PROFDB kernels --min-total 3parsecs 2>&1; echo "exit $?"
$PROFDB kernels --per-step --by step 2>&1; echo "exit $?"
$PROFDB kernels --format xml 2>&1; echo "exit $?"
$PROFDB kernels extra 2>&1; echo "exit $?"
$PROFDB kernels --db missing.db 2>&1; echo "exit $?"
$PROFDB kernels --run "overlap' OR '1'='1" 2>&1; echo "exit $?"
$PROFDB kernels --name "x' OR 1=1 --" --format csv 2>&1; echo "exit $?"
$PROFDB sql --format csv "SELECT count(*) AS kernels FROM kernel"
$PROFDB kernels --help | head -1
