# kernels grouped by the ClickHouse server: the median and percentiles are
# profdb's (linear interpolation between the closest ranks, stats.h), not
# 18.16's quantileExact (the element at floor(level * n): the upper middle of
# an even count).  testdata/clickhouse/median.json, by hand: "k'even ü" ran
# 1, 2, 4, 10 us: median (2 + 4) / 2 = 3 us; p90 h = 3 * 0.9 = 2.7 ->
# 4 + 0.7 * 6 = 8.2 us; p99 h = 2.97 -> 4 + 0.97 * 6 = 9.82 us; mean 4.25 us;
# total 17 us.  "odd" ran 8, 3, 7 us: median 7; p90 h = 1.8 -> 7 + 0.8 = 7.8;
# p99 h = 1.98 -> 7.98; mean 6.  Shares: 17 and 18 of 35 us (48.571..%,
# 51.428..%); stddev sqrt(48.75 / 3) = 4.0311289 us, sqrt(14 / 2) = 2.6457513 us.
# The launch table is taken away first: a pull of the kernel rows would fail,
# so these answers were grouped on the server.
. "$HERE/clickhouse_lib.sh"
ch_start 1
$PROFDB ingest -q --db a.db --run m "$PROFDB_TESTDATA/clickhouse/median.json" || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
echo "--- 18.16's quantileExact would say 4 us for the median of k'even:"
$PROFDB sql --db "$URL" --format csv "SELECT quantileExact(0.5)(dur_ns) AS q FROM kernel WHERE stream = 7"
ch_query 1 "RENAME TABLE prof.launch TO prof.launch_away" || exit 1
$PROFDB kernels --db "$URL" --run m --by name,stream --format csv --unit ns
echo "--- a glob with a quote and a non-ASCII letter, and the same on the file:"
$PROFDB kernels --db "$URL" --run m --name "k'even ü*" --by stream --format csv --unit us
$PROFDB kernels --db a.db --run m --name "k'even ü*" --by stream --format csv --unit us
