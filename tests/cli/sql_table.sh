# profdb sql: the SQL functions on every connection; median of 1 3 2 10 is
# (2 + 3) / 2 = 2.5; percentile(x, 90) of 1..10 is 9.1 (h = 8.1); sample
# stddev of 2 4 4 4 5 5 7 9 is sqrt(32/7) = 2.13808993529939
. "$HERE/query_setup.sh"
$PROFDB sql "WITH t(x) AS (VALUES (1),(3),(2),(10)) SELECT median(x) FROM t"
$PROFDB sql "SELECT median(x) FROM (SELECT 1 AS x UNION ALL SELECT 3 UNION ALL SELECT 2 UNION ALL SELECT 10)"
$PROFDB sql "WITH RECURSIVE t(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM t WHERE x < 10) SELECT percentile(x, 90) AS p90 FROM t"
$PROFDB sql "WITH t(x) AS (VALUES (2),(4),(4),(4),(5),(5),(7),(9)) SELECT stddev(x) AS sd FROM t"
$PROFDB sql "SELECT base_name(name) AS base, count(*) AS n FROM kernel_v WHERE run = 'overlap' GROUP BY base ORDER BY base"
$PROFDB sql --wide "SELECT name, median(dur_us), percentile(dur_us, 99) FROM kernel_v WHERE run = 'overlap' GROUP BY name ORDER BY name"
$PROFDB sql "SELECT percentile(dur_ns, 101) FROM kernel" 2>&1; echo "exit $?"
