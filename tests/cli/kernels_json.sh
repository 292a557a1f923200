# profdb kernels --format json: one object per row, valid against
# schemas/kernels.schema.json (and the --per-step one); keys of --by groups
. "$HERE/query_setup.sh"
$PROFDB kernels --run overlap --format json >k1.json && cat k1.json
$PROFDB kernels --format json --by rank,device,stream,step,type,core,kind,shape,base-name --top 2 >k2.json && cat k2.json
$PROFDB kernels --run overlap --format json --per-step >k3.json && cat k3.json
check_json k1.json kernels
check_json k2.json kernels
check_json k3.json kernels_per_step
