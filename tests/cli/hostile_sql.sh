# Hostile SQL and database opens: `profdb sql` allows only reads without
# --write (VACUUM INTO, ATTACH, setting pragmas refused before they run),
# an endless statement stops at --timeout with one line, an input SQLite
# file with views or a corrupt b-tree is refused with one line, --db is a
# plain path (never an SQLite URI), a database in a read-only folder can be
# queried, and read-only commands leave no -wal/-shm files behind.
. "$HERE/hostile_lib.sh"
baseline

# fail_sql NAME WANT_TEXT SQL...: refused, one line containing WANT_TEXT,
# database unchanged.
fail_sql() {
	name=$1 want=$2
	shift 2
	fail_clean "$name" 0 "" "$DB" sql --db "$DB" "$@"
	grep -qF -- "$want" "$WORK/err" || echo "FAIL ${name}_message: $(cat "$WORK/err")"
}
fail_sql sql_vacuum_into "read-only: ATTACH or VACUUM" "VACUUM INTO '$WORK/copy.db'"
[ -e "$WORK/copy.db" ] && echo "FAIL sql_vacuum_into_created: VACUUM INTO wrote a file"
fail_sql sql_vacuum "read-only: ATTACH or VACUUM" "VACUUM"
fail_sql sql_attach_memory "read-only" "ATTACH ':memory:' AS m"
fail_sql sql_writable_schema "PRAGMA writable_schema" "PRAGMA writable_schema = 1"
fail_sql sql_user_version_set "PRAGMA user_version with a value" "PRAGMA user_version = 9"
fail_sql sql_create_temp "read-only" "CREATE TEMP TABLE t (x)"
fail_sql sql_load_extension "not authorized" "SELECT load_extension('/nonexistent')"

# reads still work: a reporting pragma, a table-valued pragma, a bounded CTE
pd sql --db "$DB" --format csv "PRAGMA user_version" && [ "$(sed -n 2p "$WORK/out")" -gt 0 ] &&
	pd sql --db "$DB" --format csv "SELECT count(*) FROM pragma_table_info('run')" && [ "$(sed -n 2p "$WORK/out")" -gt 0 ] &&
	pd sql --db "$DB" --format csv "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT sum(x) FROM c" &&
	[ "$(sed -n 2p "$WORK/out")" = 500500 ]
report sql_reads_allowed "$([ $? = 0 ] || echo "a read was refused: $(cat "$WORK/err")")"

# An endless recursive CTE stops at --timeout (1 s here; the bound of the
# whole check is 20 s so a missing limit fails instead of hanging).
endless="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
TMO=20
start=$(date +%s)
fail_sql sql_timeout "stopped after 1.000 s" --timeout 1 "$endless"
[ $(($(date +%s) - start)) -gt 10 ] && echo "FAIL sql_timeout_late: took $(($(date +%s) - start)) s"
TMO=${PROFDB_HOSTILE_TIMEOUT:-60}
pd sql --db "$DB" --timeout soon "SELECT 1"
[ $? = 2 ] && grep -q -- "--timeout needs seconds" "$WORK/err"
report sql_timeout_bad_value "$([ $? = 0 ] || echo "not a usage error: $(cat "$WORK/err")")"

# ...and --write still writes (so the refusals above are the guard's)
before=$(db_state)
pd sql --db "$DB" --write "INSERT INTO run_meta (run_id, key, value) SELECT id, 'k2', 'v' FROM run WHERE name = 'good'"
why=$(bad_status $?)
[ "$why" = "accepted (exit 0)" ] && why=""
[ -z "$why" ] && [ "$(db_state)" = "$before" ] && why="--write changed nothing"
report sql_write_allowed "$why"

# Input SQLite files another tool wrote: TASK as a view over an endless
# recursive CTE, and a file whose b-tree pages are overwritten.
mkdir -p "$WORK/view_ascend_pt/ASCEND_PROFILER_OUTPUT" "$WORK/corrupt_ascend_pt/ASCEND_PROFILER_OUTPUT"
python3 - "$WORK/view_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" \
	"$WORK/corrupt_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" <<'PY'
import sqlite3, sys
def base(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT)")
    con.execute("CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER, blockDim INTEGER,"
                " mixBlockDim INTEGER, taskType INTEGER, opType INTEGER)")
    con.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", [(i, "kernel_%d" % i) for i in range(50)])
    return con
con = base(sys.argv[1])
con.execute("CREATE VIEW TASK AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
            " SELECT x AS startNs, x + 10 AS endNs, 0 AS deviceId, 0 AS streamId, x AS taskId,"
            " 0 AS modelId, 0 AS contextId, 0 AS connectionId, x AS globalTaskId FROM c")
con.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (1, 1, 8, 0, 1, 1)")
con.commit()
con.close()
con = base(sys.argv[2])
con.execute("CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, streamId INTEGER,"
            " taskId INTEGER, modelId INTEGER, contextId INTEGER, connectionId INTEGER, globalTaskId INTEGER)")
con.executemany("INSERT INTO TASK VALUES (?, ?, 0, 0, ?, 0, 0, 0, ?)",
                [(1000 * i, 1000 * i + 500, i, i) for i in range(20000)])
con.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?, ?, 8, 0, 1, 1)", [(i % 50, i) for i in range(20000)])
con.commit()
con.close()
# overwrite the middle third of the file (table pages, not the header or
# the schema page) with a byte pattern: the records there stop parsing
with open(sys.argv[2], "r+b") as f:
    size = f.seek(0, 2)
    f.seek(size // 3)
    f.write(b"\x0d\xff\x00\x07" * (size // 12))
PY
expect_reject adb_view_task 0 "$WORK/view_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
grep -q "has a view 'TASK'" "$WORK/err" || echo "FAIL adb_view_task_message: $(cat "$WORK/err")"
expect_reject adb_corrupt 0 "$WORK/corrupt_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
grep -q "corrupt SQLite file" "$WORK/err" || echo "FAIL adb_corrupt_message: $(cat "$WORK/err")"

# --db is a plain path: an SQLite URI is a file name like any other.
mkdir -p "$WORK/uri"
(cd "$WORK/uri" && timeout 60 "$PROFDB" ingest --db 'file:u.db?mode=rwc' --run u \
	"$WORK/good/kernel_details.csv" >/dev/null 2>"$WORK/err")
why=$(bad_status $?)
[ "$why" = "accepted (exit 0)" ] && why=""
[ -z "$why" ] && [ ! -f "$WORK/uri/file:u.db?mode=rwc" ] && why="no file named 'file:u.db?mode=rwc'"
[ -z "$why" ] && [ -e "$WORK/uri/u.db" ] && why="the URI was parsed: u.db created"
if [ -z "$why" ]; then
	(cd "$WORK/uri" && "$PROFDB" sql --db 'file:u.db?mode=rwc' --format csv "SELECT count(*) FROM kernel") >"$WORK/out" 2>"$WORK/err"
	[ "$(sed -n 2p "$WORK/out")" = 3 ] || why="cannot query it back: $(cat "$WORK/err")"
fi
report db_uri_is_a_path "$why"
mkdir -p "$WORK/odd"
ODD="$WORK/odd/a%20b#c?d.db"
pd ingest --db "$ODD" --run odd "$WORK/good/kernel_details.csv"
why=$(bad_status $?)
[ "$why" = "accepted (exit 0)" ] && why=""
[ -z "$why" ] && [ "$(ls "$WORK/odd")" != 'a%20b#c?d.db' ] && why="files: $(ls "$WORK/odd" | tr '\n' ' ')"
report db_odd_characters "$why"
# An empty --db is refused: to SQLite "" is a temporary database, so an
# ingest there would be thrown away at exit with exit 0.
why=""
for args in "ingest --run e $WORK/good/kernel_details.csv" kernels runs "sql SELECT"; do
	set -- $args
	cmd=$1
	shift
	(cd "$WORK/odd" && timeout 60 "$PROFDB" $cmd --db "" "$@" >"$WORK/out" 2>"$WORK/err")
	st=$?
	[ $st = 1 ] && [ "$(cat "$WORK/err")" = "profdb: --db: the path is empty" ] ||
		why="$why '$args': exit $st, $(head -c 200 "$WORK/err")"
done
report db_empty_path_refused "$why"

# Read-only commands leave no -wal/-shm beside the database.
rm -f "$DB-wal" "$DB-shm"
pd ingest --db "$DB" --run again "$WORK/good/kernel_details.csv"
why=""
for args in kernels runs summary sql; do
	if [ $args = sql ]; then pd sql --db "$DB" "SELECT count(*) FROM kernel"; else pd $args --db "$DB"; fi ||
		why="$args failed: $(cat "$WORK/err")"
	[ -e "$DB-wal" ] || [ -e "$DB-shm" ] && why="$why '$args' left $(ls "$DB"-* | tr '\n' ' ')"
done
report readonly_leaves_no_files "$why"

# A database in a folder this user cannot write (as nobody, like
# hostile_fs; skipped when that is not possible).
mkdir -p "$WORK/rodir"
cp "$DB" "$WORK/rodir/ro.db"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 "$WORK" "$WORK/rodir"
	chmod 644 "$WORK/rodir/ro.db"
	RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups"
elif [ "$(id -u)" != 0 ]; then
	chmod 555 "$WORK/rodir"
fi
if [ -n "$RUNAS" ] || [ "$(id -u)" != 0 ]; then
	pd kernels --db "$WORK/rodir/ro.db" --format csv
	why=$(bad_status $?)
	[ "$why" = "accepted (exit 0)" ] && why=""
	[ -z "$why" ] && ! grep -q MatMul_1 "$WORK/out" && why="no rows"
	[ -n "$why" ] && why="$why: $(cat "$WORK/err")"
	report db_readonly_folder "$why"
	RUNAS=""
	chmod 700 "$WORK"
	chmod 755 "$WORK/rodir" # so the runner can remove it
else
	echo "db_readonly_folder: skipped: root without setpriv" >&2
	echo "ok db_readonly_folder"
fi
