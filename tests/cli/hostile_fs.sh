# Hostile file-system objects and database files: symbolic link loops,
# FIFOs, unreadable files, a --db that is not a profdb database (not
# SQLite, another SQLite database, a newer schema, a folder, a FIFO), and
# profdb sql's read-only mode.  Each is refused with one line or handled;
# never a crash, a hang or a changed database file.
. "$HERE/hostile_lib.sh"
B=$PROFDB_TESTDATA/bad
baseline

# Kernel rows of run NAME, counted by python's sqlite3 (not by profdb).
kernels_of() {
	python3 -c 'import sqlite3, sys
con = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(con.execute("SELECT count(*) FROM kernel JOIN run ON run.id = kernel.run_id WHERE run.name = ?", (sys.argv[2],)).fetchone()[0])' "$DB" "$1"
}

# Symbolic link loops: with nothing else the walk finds no data; next to a
# kernel_details.csv it reads that file once (3 rows) and ends.
mkdir -p "$WORK/loop1/sub"
ln -s . "$WORK/loop1/self"
ln -s .. "$WORK/loop1/sub/up"
expect_reject fs_symlink_loop 0 "$WORK/loop1"
mkdir -p "$WORK/loop2/rank0"
good_csv "$WORK/loop2/rank0/kernel_details.csv"
ln -s .. "$WORK/loop2/rank0/back"
ln -s rank0 "$WORK/loop2/again"
pd ingest --db "$DB" --run loop2 "$WORK/loop2"
why=$(bad_status $?)
[ "$why" = "accepted (exit 0)" ] && why=$(check_sound)
[ -z "$why" ] && [ "$(kernels_of loop2)" != 6 ] && [ "$(kernels_of loop2)" != 3 ] &&
	why="stored $(kernels_of loop2) kernels, expected 3 (or 6: rank0 reached twice)"
report fs_symlink_loop_with_data "$why"

# FIFOs: as the PATH, and as a CSV inside an Ascend export (a reader that
# opens it blocking would hang until the time bound).
mkfifo "$WORK/pipe.json"
expect_reject fs_fifo_path 0 "$WORK/pipe.json"
mkdir -p "$WORK/fifo_ascend_pt/ASCEND_PROFILER_OUTPUT"
good_csv "$WORK/fifo_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
mkfifo "$WORK/fifo_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv"
mkfifo "$WORK/fifo_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"
mkfifo "$WORK/fifo_ascend_pt/profiler_info_0.json"
expect_either fs_fifo_in_export 0 "$WORK/fifo_ascend_pt"

# A file that cannot be read: chmod 000 stops everyone but root, so as
# root profdb runs as nobody (setpriv); without setpriv the case is skipped
# (noted on stderr).  /proc/self/mem stops root too: read() fails with EIO.
mkdir -p "$WORK/noread"
good_csv "$WORK/noread/kernel_details.csv"
chmod 000 "$WORK/noread/kernel_details.csv"
if [ "$(id -u)" != 0 ]; then
	expect_reject fs_unreadable 0 "$WORK/noread/kernel_details.csv"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 777 "$WORK"
	chmod 666 "$DB"
	RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	expect_reject fs_unreadable 0 "$WORK/noread/kernel_details.csv"
	RUNAS=""
	chmod 700 "$WORK"
else
	echo "fs_unreadable: skipped: running as root without setpriv" >&2
	echo "ok fs_unreadable"
fi
expect_reject fs_read_error 0 /proc/self/mem

# --db FILE that is not a profdb database: refused, the file untouched.
bad_db() { # NAME FILE
	fail_clean "$1" 0 "$2" "$2" ingest --db "$2" "$WORK/good/kernel_details.csv"
}
cp "$B/not_sqlite.db" "$WORK/not_sqlite.db"
bad_db db_not_sqlite "$WORK/not_sqlite.db"
printf 'hello, I am a text file\n' >"$WORK/text.db"
bad_db db_text_file "$WORK/text.db"
python3 - "$WORK/foreign.db" "$WORK/newer.db" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute("CREATE TABLE t (x)")
con.execute("INSERT INTO t VALUES (1)")
con.commit()
con.close()
con = sqlite3.connect(sys.argv[2])
con.execute("CREATE TABLE run (id INTEGER PRIMARY KEY, name TEXT)")
con.execute("PRAGMA user_version = 999")
con.commit()
con.close()
PY
bad_db db_foreign_sqlite "$WORK/foreign.db"
bad_db db_newer_schema "$WORK/newer.db"
grep -q 'newer' "$WORK/err" || echo "FAIL db_newer_schema_message: $(cat "$WORK/err")"
mkdir "$WORK/dir.db"
bad_db db_is_folder "$WORK/dir.db"
mkfifo "$WORK/fifo.db"
bad_db db_is_fifo "$WORK/fifo.db"

# profdb sql opens read-only unless --write: writes fail, the file is
# untouched, ATTACH cannot create a file.
fail_clean sql_ro_insert 0 "" "$DB" sql --db "$DB" \
	"INSERT INTO run_meta (run_id, key, value) SELECT id, 'k', 'v' FROM run"
fail_clean sql_ro_delete 0 "" "$DB" sql --db "$DB" "DELETE FROM kernel"
fail_clean sql_ro_drop 0 "" "$DB" sql --db "$DB" "DROP TABLE run"
fail_clean sql_ro_pragma 0 "" "$DB" sql --db "$DB" "PRAGMA user_version = 7"
fail_clean sql_ro_attach 0 "" "$DB" sql --db "$DB" "ATTACH '$WORK/attached.db' AS a"
[ -e "$WORK/attached.db" ] && echo "FAIL sql_ro_attach_created: ATTACH made a file"
# ...and --write does write (so the checks above can tell the difference)
before=$(db_state)
pd sql --db "$DB" --write "INSERT INTO run_meta (run_id, key, value) SELECT id, 'k', 'v' FROM run WHERE name = 'good'"
why=$(bad_status $?)
[ "$why" = "accepted (exit 0)" ] && why=""
[ -z "$why" ] && [ "$(db_state)" = "$before" ] && why="--write changed nothing"
[ -z "$why" ] && [ -s "$DB-wal" ] && why="WAL not empty after exit"
report sql_write_insert "$why"
