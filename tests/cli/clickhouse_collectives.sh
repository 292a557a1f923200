# profdb collectives over --db clickhouse:// prints the same bytes as on
# the SQLite file the runs were pushed from (schemas/clickhouse/
# 005_collectives.sql: kernel_coll and the Ascend comm_op, comm_transport
# and comm_link travel), in every format and --by, and pull copies the
# four tables back: per table the row count and sums of its numbers equal
# sqlite3's over the original file (which shares no code with push or
# pull), and the kernel and op each row points to is the same one.  Runs:
# HTA's nccl_data trace (NCCL sizes and process groups), the two-rank
# trace_filter set, and the Ascend level1 (2 ranks, communication.json and
# communication_matrix.json) and level2 exports.  Then an existing
# database of schema 4 (the tables dropped, version 5 unrecorded): --db
# and pull read it without them, and the next push creates them.
. "$HERE/clickhouse_lib.sh"
ch_start 1
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text
$PROFDB ingest -q --db a.db --run d "$H/nccl_parser_config/nccl_data.json.gz" || exit 1
$PROFDB ingest -q --db a.db --run f "$H/trace_filter" || exit 1
$PROFDB ingest -q --db a.db --run l1 "$A/level1" || exit 1
$PROFDB ingest -q --db a.db --run l2 "$A/level2" || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
same() {
  $PROFDB "$@" --db a.db >want 2>want.err; ws=$?
  $PROFDB "$@" --db "$URL" >got 2>got.err; gs=$?
  if [ $ws = $gs ] && cmp -s want got && cmp -s want.err got.err; then
    echo "same (exit $ws, $(wc -l <want) lines): $*"
  else
    echo "DIFFERENT (exit $ws vs $gs): $*"
    diff want got | head -5
    diff want.err got.err | head -3
  fi
}
for f in table csv json md; do
  same collectives --format $f
  same collectives --format $f --by step
  same collectives --format $f --by link
done
same collectives --run d --format csv --unit ns
same collectives --run l1 --by link --format json
# what each table holds, as numbers: per run, rows and sums (start times
# modulo a prime: their sums overflow), and for the two that point at a
# kernel or an op what they point at (its name, rank, step and time),
# computed by sqlite3 on a file; an error fails the case
facts() {
  sqlite3 -bail "$1" "SELECT r.name, count(*), sum(c.in_nelems), sum(c.out_nelems), sum(c.group_size),
      group_concat(c.collective || c.dtype || c.pg_name || c.pg_desc || c.pg_ranks, ''),
      sum(length(s.value) * (k.rank + 1) * (coalesce(k.step, 0) + 3)), sum(k.dur_ns)
    FROM kernel_coll c JOIN kernel k ON k.id = c.kernel_id JOIN str s ON s.id = k.name_id
    JOIN run r ON r.id = k.run_id GROUP BY r.name ORDER BY r.name;
    SELECT r.name, count(*), sum(o.rank), sum(o.step), group_concat(o.scope || o.op_name || coalesce(o.group_name, '-'), ''),
      sum(o.start_ns % 1000000007), sum(o.elapse_ns), sum(o.transit_ns), sum(o.wait_ns), sum(o.sync_ns), sum(o.idle_ns),
      printf('%.17g %.17g', sum(o.wait_ratio), sum(o.sync_ratio))
    FROM comm_op o JOIN run r ON r.id = o.run_id GROUP BY r.name ORDER BY r.name;
    SELECT r.name, count(*), group_concat(t.transport, ''), sum(t.bytes), sum(t.transit_ns),
      printf('%.17g %.17g', sum(t.bandwidth_gbps), sum(t.large_packet_ratio)), sum(length(t.size_distribution)),
      sum(length(o.op_name) * (o.rank + 1) * (coalesce(o.step, 0) + 3)), sum(o.start_ns % 1000000007)
    FROM comm_transport t JOIN comm_op o ON o.id = t.comm_op_id JOIN run r ON r.id = o.run_id
    GROUP BY r.name ORDER BY r.name;
    SELECT r.name, count(*), sum(l.rank), sum(l.step), group_concat(l.scope || l.matrix_op || coalesce(l.group_name, '-')
      || coalesce(l.transport, '-') || coalesce(l.op_name, '-'), ''), sum(l.src_rank), sum(l.dst_rank), sum(l.bytes),
      sum(l.transit_ns), printf('%.17g', sum(l.bandwidth_gbps))
    FROM comm_link l JOIN run r ON r.id = l.run_id GROUP BY r.name ORDER BY r.name;" || exit 1
}
facts a.db >want.txt || exit 1
echo "rows in a.db: kernel_coll $(sqlite3 a.db 'SELECT count(*) FROM kernel_coll'), comm_op $(sqlite3 a.db \
  'SELECT count(*) FROM comm_op'), comm_transport $(sqlite3 a.db 'SELECT count(*) FROM comm_transport'), comm_link \
  $(sqlite3 a.db 'SELECT count(*) FROM comm_link')"
echo "on the server: $(ch_query 1 "SELECT (SELECT count() FROM prof.kernel_coll), (SELECT count() FROM prof.comm_op),
  (SELECT count() FROM prof.comm_transport), (SELECT count() FROM prof.comm_link)")"
# pulled into a file holding another run first: ids move, links must not
$PROFDB ingest -q --db p.db --run other "$PROFDB_TESTDATA/query/trace.json" || exit 1
for r in l2 d f l1; do $PROFDB pull --quiet --from "$URL" --run $r --db p.db || exit 1; done
facts p.db >got.txt || exit 1
cmp -s want.txt got.txt && echo "pulled: the same rows, pointing at the same kernels and ops" || diff want.txt got.txt
# the tables' numbers are not all zero (the comparison above can fail)
cut -d'|' -f1,2 want.txt | tr '\n' ' '; echo "(run|rows of kernel_coll, comm_op, comm_transport, comm_link)"
echo "--- a database of schema 4 (before the tables existed)"
URL4=$(ch_url 1 "" old)
$PROFDB push --quiet --db a.db --to "$URL4" --run d || exit 1
for t in kernel_coll comm_op comm_transport comm_link memory; do ch_query 1 "DROP TABLE old.$t" || exit 1; done
ch_query 1 "ALTER TABLE old.profdb_schema DELETE WHERE version >= 5" || exit 1
ch_mutations_done 1
echo "tables: $(ch_query 1 "SELECT count() FROM system.tables WHERE database = 'old' AND name LIKE 'comm%'")"
$PROFDB collectives --db "$URL4" --format csv --run d >old.csv; echo "collectives exit $?, $(wc -l <old.csv) lines"
$PROFDB pull --quiet --from "$URL4" --run d --db q.db; echo "pull exit $?: $(sqlite3 q.db 'SELECT count(*) FROM kernel')" \
  "kernels, $(sqlite3 q.db 'SELECT count(*) FROM kernel_coll') kernel_coll rows"
$PROFDB push --quiet --db a.db --to "$URL4" --run l1 || exit 1
echo "after a push: version $(ch_query 1 "SELECT max(version) FROM old.profdb_schema"), tables $(ch_query 1 \
  "SELECT count() FROM system.tables WHERE database = 'old' AND name IN ('kernel_coll', 'comm_op', 'comm_transport', 'comm_link')")"
$PROFDB collectives --db a.db --run l1 --format csv >want
$PROFDB collectives --db "$URL4" --run l1 --format csv >got
cmp -s want got && echo "l1 pushed there: same collectives" || diff want got | head -5
