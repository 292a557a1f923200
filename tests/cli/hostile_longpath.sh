# Long paths (issue 20): a --db whose full path is 1 000 or 3 000 bytes
# (nested folders) works in every command, through SQLite's unix VFS,
# which holds 512 bytes: vfs_longpath.c names such a file through its
# folder.  Ingest (rollback journal, then WAL), --replace, kernels, sql,
# diff; a short link to a long database; a read-only folder; input files
# (a CSV, an Ascend .db) whose own path is over 500 bytes.  Expected
# figures come from python (sums of the CSV it wrote, counts read with its
# sqlite3 from a copy at a short path).
. "$HERE/hostile_lib.sh"
baseline

mk_long() { # BYTES: a folder of about BYTES bytes of nested 200-byte names
	python3 - "$WORK" "$1" <<'PY'
import os, sys
w, want = sys.argv[1], int(sys.argv[2])
d, i = w, 0
while len(d) < want:
    d += "/" + chr(ord("a") + i % 26) * 199 + "%d" % (i % 10)
    i += 1
os.makedirs(d)
print(d)
PY
}
L1=$(mk_long 1000)
L3=$(mk_long 3000)
[ ${#L1} -ge 1000 ] && [ ${#L3} -ge 3000 ] || echo "FAIL long_lengths: ${#L1} ${#L3}"
good_csv "$L1/kernel_details.csv"

# kernels --format csv of run a against python's sums of the CSV
check_kernels() { # NAME DB
	pd kernels --db "$2" --run a --format csv
	python3 - "$1" "$WORK/out" "$L1/kernel_details.csv" <<'PY'
import csv, sys
name, out, src = sys.argv[1:4]
want = {}
with open(src, newline="") as f:
    for r in csv.DictReader(f):
        t, c = want.get(r["Name"], (0.0, 0))
        want[r["Name"]] = (t + float(r["Duration(us)"]), c + 1)
got = {r["name"]: (float(r["total_us"]), int(r["calls"])) for r in csv.DictReader(open(out))}
print(f"ok {name}" if got == want else f"FAIL {name}: {got} != {want}")
PY
}

# counts read by python's sqlite3 from a copy at a short path (SQLite as
# python links it resolves any name, a relative one or a /proc/self/fd
# link included, to the long full path, and refuses it)
py_count() { # FOLDER FILE SQL
	rm -f "$WORK/pycopy.db" "$WORK/pycopy.db-wal"
	cp "$1/$2" "$WORK/pycopy.db" || return
	[ -e "$1/$2-wal" ] && cp "$1/$2-wal" "$WORK/pycopy.db-wal"
	python3 - "$WORK/pycopy.db" "$3" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])
PY
}

for L in "$L1" "$L3"; do
	n=$([ "$L" = "$L1" ] && echo 1000 || echo 3000)
	X=$L/x.db
	pd ingest --db "$X" --run a "$L1/kernel_details.csv" &&
		pd ingest --db "$X" --run b "$L1/kernel_details.csv"
	report "long_${n}_ingest" "$([ $? = 0 ] || cat "$WORK/err")"
	check_kernels "long_${n}_kernels" "$X"
	pd sql --db "$X" --format csv "SELECT count(*) AS n FROM kernel"
	want=$(py_count "$L" x.db "SELECT count(*) FROM kernel")
	[ "$(tail -n 1 "$WORK/out")" = "$want" ] && [ "$want" = 6 ] && echo "ok long_${n}_sql" ||
		echo "FAIL long_${n}_sql: $(cat "$WORK/out" "$WORK/err") python: $want"
	pd sql --db "$X" "PRAGMA journal_mode"
	grep -qx wal "$WORK/out" && echo "ok long_${n}_wal" || echo "FAIL long_${n}_wal: $(cat "$WORK/out")"
	pd ingest --db "$X" --run a --replace "$L1/kernel_details.csv"
	want=$(py_count "$L" x.db "SELECT count(*) || ' ' || (SELECT count(*) FROM kernel) FROM run")
	[ $? = 0 ] && [ "$want" = "2 6" ] && echo "ok long_${n}_replace" || echo "FAIL long_${n}_replace: $want"
	# the same file twice: every kernel unchanged, none missing
	pd diff --db "$X" a b --format csv
	python3 - "long_${n}_diff" "$WORK/out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[2])))
ok = sorted(r["name"] for r in rows) == ["Add_2", "MatMul_1"] and all(
    r["verdict"] == "unchanged" and float(r["delta_us"]) == 0 for r in rows)
print(f"ok {sys.argv[1]}" if ok else f"FAIL {sys.argv[1]}: {rows}")
PY
	ls "$L" | grep -q -- '-journal$' && echo "FAIL long_${n}_journal_left"
done

# a short link to the long database: read and written through it, the
# -wal beside the real file, nothing beside the link
ln -s "$L3/x.db" "$WORK/link.db"
pd ingest --db "$WORK/link.db" --run c "$L1/kernel_details.csv"
want=$(py_count "$L3" x.db "SELECT count(*) FROM run WHERE name = 'c'")
[ "$want" = 1 ] && [ ! -e "$WORK/link.db-wal" ] && [ ! -e "$WORK/link.db-journal" ] &&
	echo "ok long_link" || echo "FAIL long_link: $want $(cat "$WORK/err")"

# a read-only folder: queries work and leave no -shm (as nobody when root)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod -R a+rX "$WORK"
fi
chmod 555 "$L1"
check_kernels long_readonly_folder "$L1/x.db"
ls "$L1" | grep -q -- '-shm$' && echo "FAIL long_readonly_shm_left"
chmod 755 "$L1"
RUNAS=""

# an input file whose path is over 500 bytes: an Ascend .db (opened by
# SQLite) stores its compute tasks and communication ops
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/db/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db
cp "$A" "$L1/ascend_pytorch_profiler_0.db"
pd ingest --db "$L3/x.db" --run asc "$L1/ascend_pytorch_profiler_0.db"
st=$?
want=$(py_count "$L1" ascend_pytorch_profiler_0.db \
	"SELECT (SELECT count(*) FROM COMPUTE_TASK_INFO) + (SELECT count(*) FROM COMMUNICATION_OP)")
got=$(py_count "$L3" x.db "SELECT count(*) FROM kernel k JOIN run r ON r.id = k.run_id WHERE r.name = 'asc'")
[ $st = 0 ] && [ "$got" = "$want" ] && [ "$want" -gt 0 ] && echo "ok long_input_ascend_db" ||
	echo "FAIL long_input_ascend_db: exit $st, $got kernels, python $want: $(cat "$WORK/err")"
