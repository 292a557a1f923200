# profdb kernels --format csv: stable _us column names, exact decimals;
# --unit ns, --by base-name, --sort with --asc, filters
. "$HERE/query_setup.sh"
$PROFDB kernels --run overlap --format csv
$PROFDB kernels --run overlap --format csv --unit ns --by base-name
$PROFDB kernels --run overlap --format csv --sort calls --asc
$PROFDB kernels --run overlap --format csv --steps 2.. --kind kernel
$PROFDB kernels --run overlap --format csv --name '*gemm*' --min-total 16us
$PROFDB kernels --run overlap --format csv --by stream,core --steps ..1
