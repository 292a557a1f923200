# profdb sql --db clickhouse://... cannot change the server: without
# --write (which is refused there) every statement goes with ClickHouse's
# readonly setting, so the server itself refuses DDL, INSERT, ALTER and
# DROP.  Each is one error line and exit 1, and the server's tables and
# rows are as before (ch_query, not profdb, reads them).  A user the
# server makes read-only already (profile readonly=1, which may not set
# readonly again) still reads.
. "$HERE/clickhouse_lib.sh"
ch_start 1
P=$CH_PORT_1
URL=$(ch_url 1 "" prof)
$PROFDB ingest -q --db a.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
# the server's state: its tables, and the rows of two of them
state() {
  ch_query 1 "SELECT name FROM system.tables WHERE database IN ('prof', 'default') ORDER BY name FORMAT CSV"
  ch_query 1 "SELECT (SELECT count() FROM prof.run), (SELECT count() FROM prof.push_log), (SELECT count() FROM prof.kernel_ids)"
}
state >before
run() {
  "$@" >out 2>err
  echo "exit $? ($(wc -l <err) line): $(sed -e "s/:$P\//:PORT\//g" err)"
  cat out
}
echo "--- writes refused by the server:"
run $PROFDB sql --db "$URL" "CREATE TABLE prof.evil (a UInt8) ENGINE = Memory"
run $PROFDB sql --db "$URL" "CREATE TABLE default.evil (a UInt8) ENGINE = Memory"
run $PROFDB sql --db "$URL" "DROP TABLE prof.push_log"
run $PROFDB sql --db "$URL" "INSERT INTO prof.push_log (run_id, content_hash, name) VALUES (1, 'x', 'y')"
run $PROFDB sql --db "$URL" "ALTER TABLE prof.push_log DELETE WHERE 1"
run $PROFDB sql --db "$URL" "CREATE DATABASE evil"
run $PROFDB sql --db "$URL" "SELECT 1 SETTINGS readonly = 0"
run $PROFDB sql --db "$URL" --write "DROP TABLE prof.push_log"
echo "--- reads still work:"
run $PROFDB sql --db "$URL" --format csv "SELECT name FROM run"
echo "--- the server is as before:"
state >after
cmp before after && echo same
tail -1 after  # run, push_log and kernel rows (the tables are compared above)

echo "--- a user the server makes read-only:"
# the server reloads users.xml when it changes
sed -i -e 's#<profiles>#<profiles><ro><readonly>1</readonly></ro>#' \
  -e 's#<users>#<users><reader><password></password><networks><ip>127.0.0.1</ip></networks><profile>ro</profile><quota>default</quota></reader>#' \
  "$WORK/ch1/users.xml"
i=0
until [ "$(curl -s "http://reader@127.0.0.1:$P/" --data-binary 'SELECT 1' 2>/dev/null)" = 1 ]; do
  i=$((i + 1))
  [ $i -gt 300 ] && { echo "the server did not take the new user"; exit 1; }
  sleep 0.1
done
RURL=$(ch_url 1 "reader@" prof)
run $PROFDB sql --db "$RURL" --format csv "SELECT name FROM run"
run $PROFDB summary --db "$RURL" --format csv
run $PROFDB sql --db "$RURL" "DROP TABLE prof.push_log"
state >after
cmp before after && echo same
