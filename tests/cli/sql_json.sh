# profdb sql --format json
. "$HERE/query_setup.sh"
$PROFDB sql --format json "WITH t(x) AS (VALUES (1),(3),(2),(10)) SELECT median(x) AS median, 'a\"b' AS s, NULL AS n FROM t"
$PROFDB sql --format json "SELECT name, calls, total_us FROM kernel_stats WHERE run = 'overlap' AND calls > 1 ORDER BY name"
