# An empty answer names the filter that emptied it (issue 16 "--per-step,
# --steps or --rank that select nothing say why"): --min-total was blamed
# on --name/--kind, and ops printed a bare "(no rows)".  The hand-made trace
# (testdata/query/README.md): rank 0, steps 1..2, the largest kernel total
# 50 us, the largest operator host total 200 us (ProfilerStep*).
. "$HERE/query_setup.sh"
echo "-- kernels --min-total 5ms"; $PROFDB kernels --run overlap --min-total 5ms 2>&1 | tail -1
echo "-- kernels --name 'zz*' --min-total 1"; $PROFDB kernels --run overlap --name 'zz*' --min-total 1 2>&1 | tail -1
echo "-- kernels --kind memset"; $PROFDB kernels --run overlap --kind memset 2>&1 | tail -1
echo "-- ops --min-total 201us"; $PROFDB ops --run overlap --min-total 201us 2>&1 | tail -1
echo "-- ops --min-total 200us (ProfilerStep* stays)"; $PROFDB ops --run overlap --min-total 200us --format csv 2>/dev/null | cut -d, -f1,4,9
echo "-- ops --rank 1"; $PROFDB ops --run overlap --rank 1 2>&1 | tail -1
echo "-- ops --steps 3.."; $PROFDB ops --run overlap --steps 3.. 2>&1 | tail -1
echo "-- ops --name 'zz*' (csv: the note on stderr)"; $PROFDB ops --run overlap --name 'zz*' --format csv 2>&1 >/dev/null
