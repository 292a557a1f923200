# Kernel rows reach the server in the order kernel_ids is sorted by
# (schemas/clickhouse/004_kernel_ids.sql: ORDER BY (run_id, seq); push reads
# a run's kernels in SQLite id order, ch_tables.c), so the server writes
# each part of them without sorting it: its MergeTreeDataWriterBlocksAlreadySorted
# counts every block of an INSERT that arrived in key order.  Checked against
# a database made with 004 as it was first (ORDER BY (run_id, name_id, rank,
# seq)), which must keep working: the same two runs pushed there write the
# same parts, but each run's kernel part unsorted (names come in the order
# the kernels ran, not in the order of their ids), so that database counts
# exactly 2 more unsorted blocks.  Both read the same bytes as the SQLite file.
. "$HERE/clickhouse_lib.sh"
ch_start 1
HTTP="http://127.0.0.1:$CH_PORT_1/"
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt
$PROFDB ingest -q --db a.db --run level1 "$A" || exit 1
$PROFDB ingest -q --db a.db --run control "$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz" || exit 1
S=$(cd "$HERE/../../schemas/clickhouse" && pwd)
mkdir first || exit 1
sed 's/ORDER BY (run_id, seq);/ORDER BY (run_id, name_id, rank, seq);/' "$S/004_kernel_ids.sql" >first/004_kernel_ids.sql
cmp -s "$S/004_kernel_ids.sql" first/004_kernel_ids.sql && { echo "004 has no ORDER BY (run_id, seq)"; exit 1; }
python3 "$HERE/clickhouse_ref.py" apply "$HTTP" old "$S/001_tables.sql" "$S/002_tags.sql" \
  "$S/003_op_concrete.sql" first/004_kernel_ids.sql "$S/005_collectives.sql" || exit 1
# blocks the server wrote in INSERTs less those that came sorted
unsorted() {
  ch_query 1 "SELECT sumIf(value, event = 'MergeTreeDataWriterBlocks') - sumIf(value, event = 'MergeTreeDataWriterBlocksAlreadySorted') FROM system.events"
}
u0=$(unsorted)
$PROFDB push --quiet --db a.db --to "$(ch_url 1 "" old)" || exit 1
u1=$(unsorted)
$PROFDB push --quiet --db a.db --to "$(ch_url 1 "" new)" || exit 1
u2=$(unsorted)
for d in old new; do
  echo "$d: $(ch_query 1 "SHOW CREATE TABLE $d.kernel_ids" | grep -o 'ORDER BY ([a-z_, ]*)')"
done
echo "unsorted blocks: old layout $((u1 - u0)) - new layout $((u2 - u1)) = $((u1 - u0 - (u2 - u1)))"
for run in level1 control; do
  $PROFDB kernels --db a.db --run $run --by type,core >want || exit 1
  $PROFDB steps --db a.db --run $run >>want || exit 1
  for d in old new; do
    $PROFDB kernels --db "$(ch_url 1 "" $d)" --run $run --by type,core >got || exit 1
    $PROFDB steps --db "$(ch_url 1 "" $d)" --run $run >>got || exit 1
    cmp -s want got && echo "$run on $d: kernels --by type,core and steps: same bytes ($(wc -l <want) lines)"
  done
done
python3 "$HERE/clickhouse_ref.py" counts "$HTTP" old a.db | grep '^kernel:'
python3 "$HERE/clickhouse_ref.py" counts "$HTTP" new a.db | grep '^kernel:'
