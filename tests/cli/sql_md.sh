# profdb sql --format md
. "$HERE/query_setup.sh"
$PROFDB sql --format md "SELECT run, repeats, kernels, total_device_us FROM run_summary ORDER BY run"
