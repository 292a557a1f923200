# profdb sql --format csv over the views of schemas/002_views.sql; the
# values are worked out by hand in testdata/query/README.md (op_stats: the
# runtime calls are ops of their own, taken from the self time of the op
# holding them)
. "$HERE/query_setup.sh"
$PROFDB sql --format csv "SELECT * FROM kernel_stats WHERE run = 'overlap' ORDER BY total_ns DESC, name"
$PROFDB sql --format csv "SELECT run, rank, step, kernels, device_total_us, wall_us, busy_us FROM step_stats ORDER BY run, step"
$PROFDB sql --format csv "SELECT run, name, calls, host_self_us, host_total_us, device_self_us FROM op_stats WHERE run = 'overlap' ORDER BY name"
$PROFDB sql --format csv "SELECT op, kernel, dur_us FROM op_kernel WHERE run = 'overlap' ORDER BY start_ns"
$PROFDB sql --format csv "SELECT step, name, total_us FROM kernel_step_stats WHERE run = 'overlap' ORDER BY step, name"
