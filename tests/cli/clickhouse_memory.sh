# The memory table (schema 012) travels: pushed to a real clickhouse-server
# (ClickHouse schema 007), `profdb memory` in every mode over --db
# clickhouse:// prints the same bytes as on the SQLite file, and a pulled
# database holds the same memory rows (every column but the renumbered ids,
# checked with sqlite3) and answers the same.  Runs: the hand-made torch 2.x
# trace of testdata/memory (rank 1, Addr, totals) and the Ascend-msinsight
# rank 1 memory_record.csv; the op_memory table (schema 014, ClickHouse
# 008) likewise, from the hand-made Ascend operator_memory.csv.
. "$HERE/clickhouse_lib.sh"
ch_start 1
$PROFDB ingest -q --db a.db --run hand "$PROFDB_TESTDATA/memory/trace_totals.json" || exit 1
$PROFDB ingest -q --db a.db --run asc \
  "$PROFDB_CORPUS/Ascend-msinsight/server/src/test/test_data/test_rank_1" || exit 1
$PROFDB ingest -q --db a.db --run npu "$PROFDB_TESTDATA/memory/npu_ascend_pt" || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --db a.db --to "$URL" || exit 1
echo "server rows: $(ch_query 1 "SELECT count() FROM prof.memory")"
echo "server op_memory rows: $(ch_query 1 "SELECT count() FROM prof.op_memory")"
for m in "" "--by step" "--timeline" "--ops" "--run hand --ops" "--run asc" "--run npu --ops"; do
  $PROFDB memory --db a.db $m --format csv >l.txt 2>&1; a=$?
  $PROFDB memory --db "$URL" $m --format csv >s.txt 2>&1; b=$?
  cmp -s l.txt s.txt && [ $a = $b ] && echo "memory $m: same ($(wc -l <l.txt) lines, exit $a)" ||
    { echo "memory $m: differs"; diff l.txt s.txt; }
done
$PROFDB pull --db b.db --from "$URL" --run hand --run asc --run npu || exit 1
cols="r.name, m.rank, m.device_type, m.device_id, m.component, m.ts_ns, m.bytes, m.addr, m.total_allocated,
  m.total_reserved, m.total_active, m.step, m.tid, f.path"
q="SELECT $cols FROM memory m JOIN run r ON r.id = m.run_id LEFT JOIN source_file f ON f.id = m.source_id
  ORDER BY r.name, m.id"
sqlite3 a.db "$q" >a.rows; sqlite3 b.db "$q" >b.rows
cmp -s a.rows b.rows && echo "pulled: $(wc -l <a.rows) memory rows equal" || { echo "pulled rows differ"; diff a.rows b.rows; }
$PROFDB memory --db a.db --ops --format csv >l.txt; $PROFDB memory --db b.db --ops --format csv >p.txt
cmp -s l.txt p.txt && echo "pulled memory --ops: same" || diff l.txt p.txt
ocols="r.name, m.rank, m.device_type, m.device_id, m.name, m.bytes, m.alloc_ns, m.release_ns,
  m.active_release_ns, m.alloc_total_allocated, m.alloc_total_reserved, m.alloc_total_active,
  m.release_total_allocated, m.release_total_reserved, m.release_total_active, m.stream_ptr, m.step, f.path"
q="SELECT $ocols FROM op_memory m JOIN run r ON r.id = m.run_id LEFT JOIN source_file f ON f.id = m.source_id
  ORDER BY r.name, m.id"
sqlite3 a.db "$q" >a.rows; sqlite3 b.db "$q" >b.rows
cmp -s a.rows b.rows && echo "pulled: $(wc -l <a.rows) op_memory rows equal" || { echo "pulled op_memory rows differ"; diff a.rows b.rows; }
