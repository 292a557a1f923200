# profdb runs --set-repeats / --delete change a stored run without re-ingest.
# level1 testdata: total device time 224119.172 us (see ingest_ascend.sh), one
# step -> repeats 1; with 4 repeats per_repeat must be total / 4 = 56029.793 us.
$PROFDB ingest -q --db t.db --run a "$PROFDB_TESTDATA/ascend/level1"
$PROFDB ingest -q --db t.db --run b "$PROFDB_TESTDATA/ascend/level1"
$PROFDB runs --db t.db --run a --set-repeats 4
$PROFDB sql --db t.db --format csv \
  "SELECT name, repeats, repeats_source FROM run ORDER BY name"
$PROFDB sql --db t.db --format csv \
  "SELECT run, printf('%.3f', sum(per_repeat_us)) FROM kernel_summary GROUP BY run ORDER BY run"
$PROFDB runs --db t.db --run b --delete
$PROFDB sql --db t.db --format csv "SELECT count(*) FROM run"
$PROFDB sql --db t.db --format csv "SELECT count(*) FROM kernel WHERE run_id NOT IN (SELECT id FROM run)"
$PROFDB runs --db t.db --set-repeats 4 2>/dev/null; echo "no --run: exit $?"
$PROFDB runs --db t.db --run a --set-repeats 0 2>/dev/null; echo "zero: exit $?"
$PROFDB runs --db t.db --run nope --delete 2>/dev/null; echo "unknown run: exit $?"
