# clickhouses:// against a real server serving HTTPS (18.16's https_port and
# openSSL server config) with a self-signed certificate made here by
# openssl req: trusted through $PROFDB_CLICKHOUSE_CAINFO, a push and a query
# go over TLS; without it, or trusting another certificate, one line and
# exit 1, and nothing is written.
. "$HERE/clickhouse_lib.sh"
command -v openssl >/dev/null || { echo "openssl is not installed"; exit 77; }
for c in server other; do
  openssl req -x509 -newkey rsa:2048 -nodes -keyout $c.key -out $c.pem -days 2 \
    -subj /CN=127.0.0.1 -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null || exit 1
done
HP=$(ch_free_port)
ch_start 1 "<https_port>$HP</https_port><openSSL><server><certificateFile>$PWD/server.pem</certificateFile>
  <privateKeyFile>$PWD/server.key</privateKeyFile><verificationMode>none</verificationMode>
  <loadDefaultCAFile>false</loadDefaultCAFile><disableProtocols>sslv2,sslv3</disableProtocols></server></openSSL>"
$PROFDB ingest -q --db a.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
URL="clickhouses://127.0.0.1:$HP/prof"
port() { sed "s/:$HP\\//:PORT\\//"; }
echo "--- untrusted: the system CAs do not know it"
$PROFDB push --db a.db --to "$URL" >out 2>&1; echo "exit $?"; port <out
echo "--- trusting another certificate"
PROFDB_CLICKHOUSE_CAINFO=other.pem $PROFDB push --db a.db --to "$URL" >out 2>&1; echo "exit $?"; port <out
echo "--- nothing written (plain HTTP port):"
ch_query 1 "SELECT count() FROM system.databases WHERE name = 'prof'"
export PROFDB_CLICKHOUSE_CAINFO=$PWD/server.pem
echo "--- trusted (6 device activities in testdata/query/trace.json):"
$PROFDB push --db a.db --to "$URL" 2>&1 | port
ch_query 1 "SELECT count() FROM prof.kernel"
$PROFDB kernels --db a.db --format csv >want
$PROFDB kernels --db "$URL" --by name,stream --format csv >got2
$PROFDB kernels --db a.db --by name,stream --format csv >want2
$PROFDB kernels --db "$URL" --format csv >got
cmp want got && cmp want2 got2 && echo "kernels over TLS: the same bytes as the file"
