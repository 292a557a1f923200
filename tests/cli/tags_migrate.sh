# Schema 006_bench migrates a database written before it: built here from
# the schema files 001..003 alone (by Python's sqlite3, not by profdb) with
# one run, then opened for writing by profdb: the run keeps its rows and
# takes tags, and the wallclock kind exists
python3 - "$HERE/../../schemas" <<'PY' || exit 1
import sqlite3, sys
db = sqlite3.connect("old.db")
for f in ("001_core.sql", "002_views.sql", "003_bulk.sql"):
    db.executescript(open(sys.argv[1] + "/" + f).read())
db.execute("INSERT INTO run(id, name, source_path, format, ingested_at, profdb_version)"
           " VALUES (1, 'old', '/x', 'kineto', '2024-01-01T00:00:00Z', '0.1.0')")
db.execute("INSERT INTO str(id, value) VALUES (1, 'k')")
db.execute("INSERT INTO kernel(run_id, name_id, base_id, kind, start_ns, dur_ns) VALUES (1, 1, 1, 0, 0, 5000)")
db.commit()
print("user_version before:", db.execute("PRAGMA user_version").fetchone()[0])
PY
$PROFDB runs --db old.db --run old --set-tag backend=cuda || exit 1
$PROFDB sql --db old.db --format csv "SELECT (SELECT name FROM kind WHERE id = 5) AS kind5,
  (SELECT count(*) FROM kernel) AS kernels, (SELECT value FROM run_tag_all) AS tag"
$PROFDB kernels --db old.db --tag backend=cuda --format csv --unit ns | cut -d, -f1,3,4,13
