# profdb memory --ops on an Ascend export: the rows come from
# operator_memory.csv (table op_memory), per device and operator Name,
# against op_memory_ref.py's independent reading of the raw file.  The
# hand-made file (testdata/memory/README.md works its values out by hand)
# has CRLF, timestamps with a trailing TAB, a negative Size row, two
# devices, a ragged row and an N/A size (both counted skips).  The ingest
# summary counts the table; --name filters; JSON valid.  npu_module_mem.csv
# (reserved KB per CANN module) goes into the memory table as component
# module:<name>; its peaks against the same script.
. "$HERE/query_setup.sh"
A=$PROFDB_TESTDATA/memory/npu_ascend_pt
$PROFDB ingest --db a.db --run npu "$A" | sed "s|$PROFDB_TESTDATA|TESTDATA|" || exit 1
$PROFDB memory --db a.db --ops --format csv | tee o.csv || exit 1
python3 "$HERE/op_memory_ref.py" "$A/ASCEND_PROFILER_OUTPUT/operator_memory.csv" o.csv || exit 1
$PROFDB memory --db a.db --ops --name 'aten::*' --format csv
$PROFDB memory --db a.db --ops --steps 1 --format csv
$PROFDB memory --db a.db --ops --format json >m.json || exit 1
check_json m.json memory
$PROFDB sql --db a.db "SELECT device_id, name, bytes, alloc_ns, release_ns, active_release_ns, alloc_total_allocated, release_total_active, stream_ptr FROM op_memory ORDER BY id" --format csv
$PROFDB memory --db a.db --format csv | tee d.csv || exit 1
python3 "$HERE/op_memory_ref.py" --modules "$A/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv" d.csv || exit 1
