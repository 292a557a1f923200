# ClickHouse answers that are not whole, against a real clickhouse-server
# behind clickhouse_fault_proxy.py (loopback, started and stopped here by
# its PID, every wait of it bounded):
#  - a reply cut after its headers or in its body, framed (chunked) or not
#    framed at all, is one error line and exit 1, never "(no rows)" or
#    zero figures; a push whose run-list reply is cut stores nothing (the
#    server keeps one copy of the run: ch_query counts);
#  - a server that never answers fails after --read-timeout seconds;
#  - an endless 200 body to a held answer (the run list, sql) stops at the
#    bound on held answers (256 MiB), an error line and exit 1.
. "$HERE/clickhouse_lib.sh"
ch_start 1
P=$CH_PORT_1
URL=$(ch_url 1 "" prof)
$PROFDB ingest -q --db a.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB push --quiet --db a.db --to "$URL" || exit 1

# proxy MODE [MATCH [LIFE_S]]: start the proxy in front of server 1 (PX its
# port, PX_PID its PID; the lib's exit trap kills it too)
proxy() {
  rm -f px.port
  python3 "$HERE/clickhouse_fault_proxy.py" "$P" "$1" px.port "${2:-}" "${3:-60}" &
  PX_PID=$!
  CH_PIDS="$CH_PIDS $PX_PID"
  i=0
  until [ -s px.port ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && { echo "the proxy did not start"; exit 1; }
    sleep 0.1
  done
  PX=$(cat px.port)
  PXURL="clickhouse://127.0.0.1:$PX/prof"
}
unproxy() {
  kill "$PX_PID" 2>/dev/null
  wait "$PX_PID" 2>/dev/null
}
# run CMD...: its exit status, the number of stderr lines and stderr (ports
# replaced), then its stdout
run() {
  "$@" >out 2>err
  echo "exit $? ($(wc -l <err) line): $(sed -e "s/:$PX\//:PROXY\//g" -e "s/:$P\//:PORT\//g" err)"
  cat out
}

echo "--- through the proxy, unharmed:"
proxy pass
run $PROFDB summary --db "$PXURL" --format csv
unproxy

# the run list: "SELECT id, name, content_hash FROM run ORDER BY ..."
for mode in cut-headers bare-headers cut-chunked bare-half; do
  echo "--- runs, run list $mode:"
  proxy "$mode" "content_hash FROM run"
  run $PROFDB runs --db "$PXURL"
  unproxy
done
# summary's figures, computed by the server ("... FROM kernel_ids ...")
for mode in cut-headers bare-headers bare-half; do
  echo "--- summary, figures $mode:"
  proxy "$mode" "FROM kernel_ids"
  run $PROFDB summary --db "$PXURL"
  unproxy
done
echo "--- sql, answer bare-headers and bare-half:"
proxy bare-headers "SELECT name FROM run"
run $PROFDB sql --db "$PXURL" "SELECT name FROM run"
unproxy
proxy bare-half "SELECT name FROM run"
run $PROFDB sql --db "$PXURL" "SELECT name FROM run"
unproxy

echo "--- push again, run list bare-headers: refused, still one copy"
proxy bare-headers "content_hash FROM run"
run $PROFDB push --db a.db --to "$PXURL"
unproxy
ch_query 1 "SELECT count() FROM prof.run WHERE name = 'overlap'"
ch_query 1 "SELECT count() FROM prof.push_log"

echo "--- a server that never answers, --read-timeout 2:"
proxy silent
t0=$(date +%s)
run $PROFDB runs --db "$PXURL" --read-timeout 2
t1=$(date +%s)
echo "gave up within 2 to 10 s: $([ $((t1 - t0)) -ge 2 ] && [ $((t1 - t0)) -le 10 ] && echo yes || echo "no ($((t1 - t0)) s)")"
unproxy

echo "--- an endless 200 body:"
# 256 MiB must pass before it ends: a slow, shared machine gets 180 s
proxy endless "content_hash FROM run" 180
run $PROFDB runs --db "$PXURL" --read-timeout 5
unproxy
proxy endless "SELECT 42 AS endless" 180
run $PROFDB sql --db "$PXURL" --read-timeout 5 "SELECT 42 AS endless"
unproxy
echo "--- the server is as before:"
ch_query 1 "SELECT name FROM prof.run"

echo "--- a failed pull into a new file leaves no file; an old file stays:"
run $PROFDB pull --db new1.db --from "$URL" --run nosuch
proxy cut-chunked "FROM kernel_ids"
run $PROFDB pull --db new2.db --from "$PXURL" --run overlap
unproxy
run $PROFDB pull --db new3.db --from "clickhouse://127.0.0.1:$P/" --run overlap
: >empty.db
run $PROFDB pull --db empty.db --from "$URL" --run nosuch
sha256sum a.db >a.sum
run $PROFDB pull --db a.db --from "$URL" --run nosuch
ls new1.db* new2.db* new3.db* empty.db* a.db* 2>&1 | sort
sha256sum -c a.sum
