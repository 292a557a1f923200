# One byte budget for the per-name state of an ingest (name_stats.c,
# PROFDB_NAME_STATS_BYTES): 40 names over 3 steps (1 458 kernels) ingested
# held whole, with a budget that drops the durations part way (read back
# at commit, two or three names a scan) and with one too small for the
# names (ordered scans).  kernel_name_stat and kernel_step_stat are checked
# against figures a Python script computes from the CSV
# (name_stats_budget_ref.py), and the two budgeted runs must give the held
# run's rows byte for byte, in the same order.
set -e
python3 "$HERE/name_stats_budget_ref.py" gen k.csv
dump() { # DB: the two tables as csv, full precision
  $PROFDB sql --db "$1" --format csv "SELECT n.value AS name, calls, total_ns, min_ns, max_ns,
    printf('%.17g', avg_ns) AS avg_ns, printf('%.17g', median_ns) AS median_ns,
    printf('%.17g', stddev_ns) AS stddev_ns, printf('%.17g', p90_ns) AS p90_ns,
    printf('%.17g', p99_ns) AS p99_ns FROM kernel_name_stat s JOIN str n ON n.id = s.name_id
    ORDER BY n.value" > "$1.names"
  $PROFDB sql --db "$1" --format csv "SELECT n.value AS name, step, calls, total_ns
    FROM kernel_step_stat s JOIN str n ON n.id = s.name_id ORDER BY s.rowid" > "$1.steps"
}
$PROFDB ingest -q --db held.db --run r k.csv
PROFDB_NAME_STATS_BYTES=10000 $PROFDB ingest -q --db scanned.db --run r k.csv
PROFDB_NAME_STATS_BYTES=5000 $PROFDB ingest -q --db spilled.db --run r k.csv
for d in held scanned spilled; do dump $d.db; done
echo "held:"
python3 "$HERE/name_stats_budget_ref.py" check k.csv held.db.names held.db.steps
for d in scanned spilled; do
  cmp held.db.names $d.db.names && cmp held.db.steps $d.db.steps && echo "$d: the held run's rows"
done
