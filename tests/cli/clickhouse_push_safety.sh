# profdb push is safe to interrupt, repeat and run from several nodes at
# once, against a real clickhouse-server:
#  - three nodes (SQLite files) push at the same time: all runs arrive;
#  - a push interrupted by kill -9 of the server leaves no visible run; the
#    same push after a restart succeeds, and once the server has applied
#    its deletes it holds exactly one copy of every row (no leftovers);
#  - --replace swaps a run of the same name for a new one (different
#    repeats): one run of that name, with the new figures, no old rows.
# Row counts of every table are compared with the local files by
# clickhouse_ref.py (python sqlite3 + HTTP), both the rows readers see and
# all rows on the server, so rows of dead attempts or replaced runs show.
. "$HERE/clickhouse_lib.sh"
ch_start 1
URL=$(ch_url 1 "" prof)
C=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db node1.db --run control "$C/control/control.json.gz" || exit 1
$PROFDB ingest -q --db node2.db --run test "$C/test/test.json.gz" || exit 1
$PROFDB ingest -q --db node5.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
echo "--- three nodes at once:"
$PROFDB push --quiet --db node1.db --to "$URL" & p1=$!
$PROFDB push --quiet --db node2.db --to "$URL" & p2=$!
$PROFDB push --quiet --db node5.db --to "$URL" & p5=$!
wait $p1; s1=$?
wait $p2; s2=$?
wait $p5; s5=$?
echo "exit $s1 $s2 $s5"
ch_query 1 "SELECT name FROM prof.run ORDER BY name"
python3 "$HERE/clickhouse_ref.py" counts "http://127.0.0.1:$CH_PORT_1/" prof node1.db node2.db \
  node5.db || exit 1

echo "--- interrupted by kill -9, then pushed again:"
mkdir big
cp "$C/control/control.json.gz" big/rank0.json.gz
cp "$C/test/test.json.gz" big/rank1.json.gz
$PROFDB ingest -q --db node3.db --run big big || exit 1
$PROFDB push --quiet --db node3.db --to "$URL" 2>err & p3=$!
# the attempt is logged before its first row: kill the server right then
until [ "$(ch_query 1 "SELECT count() FROM prof.push_log WHERE name = 'big'")" = 1 ]; do
  sleep 0.02
done
ch_stop 1 KILL
wait $p3; echo "exit $? ($(wc -l <err) line)"
ch_restart 1
ch_query 1 "SELECT count() FROM prof.run WHERE name = 'big'"
# the kill may have come before the first row: add one row of the dead
# attempt's id so there is surely something to clean up
# (kernel is a view since schema 4: the rows are in kernel_ids, their
# texts in kernel_str)
ch_query 1 "INSERT INTO prof.kernel_ids (run_id, seq, rank, name_id, base_id, kind, start_ns, dur_ns)
  SELECT run_id, 1, 0, 1, 1, 0, 0, 1 FROM prof.push_log WHERE name = 'big'"
ch_query 1 "INSERT INTO prof.kernel_str (run_id, id, text)
  SELECT run_id, 1, 'leftover' FROM prof.push_log WHERE name = 'big'"
ch_query 1 "SELECT count() > 0 FROM prof.kernel WHERE run_id NOT IN (SELECT id FROM prof.run)"
$PROFDB push --db node3.db --to "$URL" --run big || exit 1
ch_mutations_done 1
python3 "$HERE/clickhouse_ref.py" counts "http://127.0.0.1:$CH_PORT_1/" prof node1.db node2.db \
  node5.db node3.db || exit 1

echo "--- replace:"
$PROFDB ingest -q --db node4.db --run overlap --repeats 4 "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB push --db node4.db --to "$URL" --run overlap 2>&1 | sed "s/:$CH_PORT_1\//:PORT\//"
$PROFDB push --db node4.db --to "$URL" --run overlap --replace || exit 1
ch_mutations_done 1
ch_query 1 "SELECT name, repeats FROM prof.run WHERE name = 'overlap'"
python3 "$HERE/clickhouse_ref.py" counts "http://127.0.0.1:$CH_PORT_1/" prof node1.db node2.db \
  node3.db node4.db || exit 1
