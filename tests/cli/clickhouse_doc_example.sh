# doc/clickhouse.md's example (push, a query on the server, pull) runs
# against a real clickhouse-server (clickhouse_lib.sh) and prints what the
# document shows: scripts/readme-examples skips it elsewhere, for want of a
# server.  The kernels on the server and on the pulled copy are those of
# testdata/query/README.md's hand count (readme_examples checks the local
# table against the same figures).
. "$HERE/clickhouse_lib.sh"
ch_start 1
PROFDB_DOC_CH=$(ch_url 1 "" prof) python3 "$HERE/../../scripts/readme-examples" --profdb "$PROFDB" \
  "$HERE/../../doc/clickhouse.md"
