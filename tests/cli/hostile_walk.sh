# Folder walks visit each real folder once (device + inode): a symbolic
# link fan-out (every level has two links to the next, 2^24 paths) ends in
# seconds and reads the one kernel_details.csv at its bottom once; an empty
# folder (no entries to sort) is a clean "no profiler data" error.
. "$HERE/hostile_lib.sh"
baseline

# kernel rows of run NAME, counted by python's sqlite3 (not by profdb)
kernels_of() {
	python3 -c 'import sqlite3, sys
con = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(con.execute("SELECT count(*) FROM kernel JOIN run ON run.id = kernel.run_id WHERE run.name = ?", (sys.argv[2],)).fetchone()[0])' "$DB" "$1"
}

# fan/l0/{a,b} -> fan/l1, fan/l1/{a,b} -> fan/l2, ... fan/l24 holds the data
mkdir -p "$WORK/fan"
i=0
while [ $i -lt 24 ]; do
	mkdir -p "$WORK/fan/l$i"
	ln -s "../l$((i + 1))" "$WORK/fan/l$i/a"
	ln -s "../l$((i + 1))" "$WORK/fan/l$i/b"
	i=$((i + 1))
done
mkdir -p "$WORK/fan/l24"
good_csv "$WORK/fan/l24/kernel_details.csv"
TMO=30
pd ingest --db "$DB" --run fan "$WORK/fan/l0"
rc=$?
why=""
[ $rc != 0 ] && why="exit $rc ($(bad_status $rc)): $(head -c 300 "$WORK/err")"
TMO=${PROFDB_HOSTILE_TIMEOUT:-60}
[ -z "$why" ] && why=$(check_sound)
[ -z "$why" ] && [ "$(kernels_of fan)" != 3 ] && why="stored $(kernels_of fan) kernels, expected 3 (the file once)"
report walk_symlink_fanout "$why"

# an empty folder: nothing to read, said once
mkdir -p "$WORK/empty"
expect_reject walk_empty_folder 0 "$WORK/empty"
grep -q "no profiler data found" "$WORK/err" || echo "FAIL walk_empty_folder_message: $(cat "$WORK/err")"
