# Schema 4 (schemas/clickhouse/004_kernel_ids.sql): kernel rows are stored
# with their texts as per-run ids (kernel_ids) and each run's texts once
# (kernel_str).  Checked independently by clickhouse_ref.py (python sqlite3
# + HTTP): each run's dictionary holds exactly the distinct texts its
# kernels name, under ids 1..n, and the text columns are UInt32; the view
# kernel gives every pushed row back with its texts (counts).  Then the
# migration story: a database made with schemas 001-003 (as profdb pushed
# before) that holds a run is refused by readers and by push with one line
# saying what to do (exit 1, nothing written); one that holds no run is
# converted by the next push, and reads the same as the SQLite file.
. "$HERE/clickhouse_lib.sh"
ch_start 1
HTTP="http://127.0.0.1:$CH_PORT_1/"
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt
$PROFDB ingest -q --db a.db --run level1 "$A" || exit 1
$PROFDB ingest -q --db a.db --run control "$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz" || exit 1
$PROFDB ingest -q --db a.db --run "it's \"ünï\" ✓" "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB push --quiet --db a.db --to "$(ch_url 1 "" prof)" || exit 1
python3 "$HERE/clickhouse_ref.py" dict "$HTTP" prof a.db || exit 1
python3 "$HERE/clickhouse_ref.py" counts "$HTTP" prof a.db | grep '^kernel:'
S=$(cd "$HERE/../../schemas/clickhouse" && pwd)

echo "--- a schema 3 database holding a run:"
python3 "$HERE/clickhouse_ref.py" apply "$HTTP" old "$S/001_tables.sql" "$S/002_tags.sql" \
  "$S/003_op_concrete.sql" || exit 1
ch_query 1 "INSERT INTO old.run (id, name, content_hash) VALUES (7, 'r1', 'h')" || exit 1
ch_query 1 "INSERT INTO old.kernel (run_id, seq, rank, name, base_name, kind, start_ns, dur_ns)
  VALUES (7, 1, 0, 'k', 'k', 1, 0, 5)" || exit 1
for cmd in "runs" "kernels --run r1"; do
  $PROFDB $cmd --db "$(ch_url 1 "" old)" >out 2>&1; echo "exit $?"
  sed "s/:$CH_PORT_1\//:PORT\//" out
done
$PROFDB push --db a.db --to "$(ch_url 1 "" old)" --run level1 >out 2>&1; echo "exit $?"
sed "s/:$CH_PORT_1\//:PORT\//" out
ch_query 1 "SELECT max(version), (SELECT count() FROM old.run), (SELECT count() FROM old.kernel)
  FROM old.profdb_schema"

echo "--- a schema 3 database holding no run:"
python3 "$HERE/clickhouse_ref.py" apply "$HTTP" empty "$S/001_tables.sql" "$S/002_tags.sql" \
  "$S/003_op_concrete.sql" || exit 1
$PROFDB push --quiet --db a.db --to "$(ch_url 1 "" empty)" --run level1 || exit 1
ch_query 1 "SELECT max(version) FROM empty.profdb_schema"
ch_query 1 "SELECT engine FROM system.tables WHERE database = 'empty' AND name = 'kernel'"
python3 "$HERE/clickhouse_ref.py" dict "$HTTP" empty a.db level1 || exit 1
$PROFDB kernels --db a.db --run level1 --by type,core >want || exit 1
$PROFDB kernels --db "$(ch_url 1 "" empty)" --run level1 --by type,core >got || exit 1
cmp -s want got && echo "kernels --by type,core: same bytes ($(wc -l <want) lines)"
