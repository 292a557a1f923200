# profdb push / pull when things go wrong, against a real clickhouse-server:
# a server that is down, a wrong password (never printed), the password from
# $PROFDB_CLICKHOUSE_PASSWORD or a netrc file, bad URLs, a run the server
# does not have.  Every failure is one line and exit 1 (2 for usage), and
# the local database is byte for byte as before (sha256sum).
. "$HERE/clickhouse_lib.sh"
ch_start 1
$PROFDB ingest -q --db a.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
sha256sum a.db >a.sum
P=$CH_PORT_1
DOWN=$(ch_free_port)
# run CMD...: print its stderr (ports replaced) and exit status
run() {
  "$@" >out 2>err
  echo "exit $?: $(sed -e "s/:$P\//:PORT\//g" -e "s/:$DOWN\//:DOWN\//g" \
    -e "s/port $DOWN after [0-9]* ms/port DOWN/" err)"
  cat out
}
echo "--- down:"
run $PROFDB push --db a.db --to "clickhouse://127.0.0.1:$DOWN/prof"
run $PROFDB pull --db a.db --from "clickhouse://127.0.0.1:$DOWN/prof" --run overlap
echo "--- wrong password:"
run $PROFDB push --db a.db --to "clickhouse://tester:wrongpw@127.0.0.1:$P/prof"
grep -c wrongpw err
PROFDB_CLICKHOUSE_PASSWORD=wrongpw2 run $PROFDB push --db a.db --to "clickhouse://tester@127.0.0.1:$P/prof"
grep -c wrongpw2 err
run $PROFDB kernels --db "clickhouse://tester:topsecret@127.0.0.1:$DOWN/prof"
run $PROFDB diff --db "clickhouse://tester:topsecret@127.0.0.1:$P/nosuchdb" a b
grep -c topsecret err
echo "--- bad URLs:"
run $PROFDB push --db a.db --to "http://127.0.0.1:$P/prof"
run $PROFDB push --db a.db --to "clickhouse://127.0.0.1:$P/"
run $PROFDB push --db a.db --to "clickhouse://127.0.0.1:$P/x;DROP"
run $PROFDB push --db a.db
run $PROFDB push --db a.db --to "clickhouse://127.0.0.1:$P/prof" --run nosuch
run $PROFDB pull --db a.db --from "clickhouse://127.0.0.1:$P/prof"
echo "--- password from the environment:"
PROFDB_CLICKHOUSE_PASSWORD=s3cret run $PROFDB push --db a.db --to "clickhouse://tester@127.0.0.1:$P/prof"
echo "--- password from netrc:"
printf 'machine 127.0.0.1\nlogin tester\npassword s3cret\n' >netrc
NETRC=$PWD/netrc run $PROFDB pull --db b.db --from "clickhouse://tester@127.0.0.1:$P/prof" --run overlap
echo "--- not on the server:"
run $PROFDB pull --db b.db --from "clickhouse://127.0.0.1:$P/prof" --run nosuch
echo "--- local database unchanged:"
sha256sum -c a.sum
