# A new database file gets 16 KiB pages and ends in WAL mode after its
# first ingest (written through the rollback journal, issue 15); an
# existing file keeps its page size.  Read back with Python's sqlite3, not
# profdb: the page size and journal mode come from SQLite's own header.
K=$PROFDB_CORPUS/msprof-analyze/test/ut/advisor/compute_advice/data/kernel_details.csv
mode() { # DB: page size, journal mode, kernel rows (straight from the file)
  python3 - "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
n = c.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'kernel'").fetchone()[0]
rows = c.execute("SELECT count(*) FROM kernel").fetchone()[0] if n else "-"
print(c.execute("PRAGMA page_size").fetchone()[0], c.execute("PRAGMA journal_mode").fetchone()[0], rows)
PY
}
echo "== new file, one ingest"
$PROFDB ingest -q --db new.db "$K" || exit 1
mode new.db
echo "== a second ingest into it"
$PROFDB ingest -q --db new.db --run two "$K" || exit 1
mode new.db
echo "== existing file with 4 KiB pages, rollback journal"
python3 - "$HERE/../../schemas" old.db <<'PY'
import glob, os, sqlite3, sys
c = sqlite3.connect(sys.argv[2])
c.execute("PRAGMA page_size = 4096")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.sql"))):
    c.executescript(open(f).read())
c.commit()
PY
mode old.db
$PROFDB ingest -q --db old.db "$K" || exit 1
mode old.db
