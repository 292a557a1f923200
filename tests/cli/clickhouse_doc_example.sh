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
# The figures the document shows for the server and the pulled copy are
# testdata/query/README.md's hand count (calls, total: gemm<128> 2, 50 us;
# add_kernel 2, 15; gemm<64> 1, 15; Memcpy DtoD 1, 10), so the example the
# reader sees is right, not only unchanged.
D="$HERE/../../doc/clickhouse.md"
for want in '"void gemm_kernel<float, 128>(float const\*, float\*)",2,50000' 'add_kernel,2,15000' \
    '"void gemm_kernel<float, 64>(float const\*, float\*)",1,15000' 'Memcpy DtoD (Device -> Device),1,10000'; do
  grep -q "^$want\$" "$D" || echo "doc/clickhouse.md does not show $want"
done
n=$(grep -c '^55.5555555555556,50,2,25,25,20,30,7.071068,29,29.9,25,"void gemm_kernel<float, 128>' "$D")
echo "gemm<128> kernels rows (server, pulled copy): $n"
