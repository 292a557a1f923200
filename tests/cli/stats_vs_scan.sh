# Schema 3's stored statistics answer as the row scans they replace: runs
# ingested now carry kernel_name_stat and kernel_step_stat (run.name_stats
# = 1); with the flag cleared the same commands scan the kernel rows.
# Checked: kernel_step_stat equals a GROUP BY over the kernel rows; and
# kernels, diff (name, base-name and kind keys) and report print the same
# bytes either way.  Inputs: HTA trace_diff control/test (Kineto, 6 steps,
# kernels placed in steps through their launches at commit).
set -e
T=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db s.db --run control "$T/control/control.json.gz"
$PROFDB ingest -q --db s.db --run test "$T/test/test.json.gz"
$PROFDB sql --db s.db "SELECT name, name_stats FROM run ORDER BY id"
$PROFDB sql --db s.db "SELECT count(*) AS differing FROM (SELECT run_id, rank, step, name_id, kind, calls, total_ns
  FROM kernel_step_stat EXCEPT SELECT run_id, rank, step, name_id, kind, count(*), sum(dur_ns)
  FROM kernel GROUP BY run_id, rank, step, name_id, kind)"
$PROFDB sql --db s.db "SELECT count(*) AS missing FROM (SELECT run_id, rank, step, name_id, kind, count(*), sum(dur_ns)
  FROM kernel GROUP BY run_id, rank, step, name_id, kind EXCEPT SELECT run_id, rank, step, name_id, kind, calls,
  total_ns FROM kernel_step_stat)"
answers() {
  $PROFDB kernels --db s.db --format csv
  $PROFDB kernels --db s.db --format csv --name '*gemm*' --sort median --top 5
  $PROFDB diff --db s.db control test --format csv
  $PROFDB diff --db s.db control test --format csv --by base-name
  $PROFDB diff --db s.db control test --format csv --by kind
  $PROFDB report --db s.db control test --format json
}
answers > stored.txt 2>/dev/null
$PROFDB sql --db s.db --write "UPDATE run SET name_stats = 0" >/dev/null
answers > scanned.txt 2>/dev/null
wc -l < stored.txt | awk '{ print ($1 > 40) ? "many lines" : "too few lines: " $1 }'
cmp stored.txt scanned.txt && echo "stored = scanned"
