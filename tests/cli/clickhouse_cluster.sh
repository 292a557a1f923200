# The cluster layout of doc/clickhouse.md "ClickHouse", on two real servers on
# loopback: each node pushes to its own shard (database prof, MergeTree
# tables made by push), both at once; a database prof_all on server 1 has a
# Distributed table over the two shards for each profdb table; queries
# through it (kernels, summary, steps, diff) print the same bytes as the
# same commands on one SQLite file holding all the runs, and the rows seen
# through the Distributed tables are the sum of the local ones
# (clickhouse_ref.py counts: python sqlite3 + HTTP).
. "$HERE/clickhouse_lib.sh"
CH_PORT_1=$(ch_free_port)
CH_TCP_1=$(ch_free_port)
ch_start 2
ch_start 1 "<remote_servers><profdb_cluster>
  <shard><replica><host>127.0.0.1</host><port>$CH_TCP_1</port></replica></shard>
  <shard><replica><host>127.0.0.1</host><port>$CH_TCP_2</port></replica></shard>
</profdb_cluster></remote_servers>"
C=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db node1.db --run control "$C/control/control.json.gz" || exit 1
$PROFDB ingest -q --db node2.db --run test "$C/test/test.json.gz" || exit 1
$PROFDB ingest -q --db node2.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB ingest -q --db all.db --run control "$C/control/control.json.gz" || exit 1
$PROFDB ingest -q --db all.db --run test "$C/test/test.json.gz" || exit 1
$PROFDB ingest -q --db all.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
# (each prints to its own file: the two finish in either order)
$PROFDB push --db node1.db --to "$(ch_url 1 "" prof)" >p1.out & p1=$!
$PROFDB push --db node2.db --to "$(ch_url 2 "" prof)" >p2.out & p2=$!
wait $p1 || exit 1
wait $p2 || exit 1
cat p1.out p2.out
ch_query 1 "CREATE DATABASE prof_all" || exit 1
for t in run push_log run_meta source_file source_skip run_note kernel_ids kernel_str kernel op launch step \
         kernel_step_stat_ids \
         step_metric kernel_name_stat kernel_step_stat run_tag; do
  ch_query 1 "CREATE TABLE prof_all.$t AS prof.$t ENGINE = Distributed(profdb_cluster, prof, $t)" || exit 1
done
python3 "$HERE/clickhouse_ref.py" counts "http://127.0.0.1:$CH_PORT_1/" prof_all node1.db node2.db || exit 1
URL=$(ch_url 1 "" prof_all)
same() {
  $PROFDB "$@" --db all.db >want 2>&1; ws=$?
  $PROFDB "$@" --db "$URL" >got 2>&1; gs=$?
  if [ $ws = $gs ] && cmp -s want got; then
    echo "same (exit $ws, $(wc -l <want) lines): $*"
  else
    echo "DIFFERENT (exit $ws vs $gs): $*"
    diff want got | head -5
  fi
}
for r in control test overlap; do
  same kernels --run $r --format csv
  same summary --run $r
  same steps --run $r --format json
done
same kernels --run test --by kind,rank --per-step
same diff control test --format csv
same diff control test --fail-on-regression
