# profdb kernels --per-step: mean and sample stddev of each kernel's total per
# step (0 in steps where it did not run) and the step of its maximum
. "$HERE/query_setup.sh"
$PROFDB kernels --run overlap --per-step
echo
$PROFDB kernels --run overlap --per-step --format csv --sort stddev
echo
$PROFDB kernels --run overlap --per-step --by base-name --format csv
