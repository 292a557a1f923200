# Error messages under hostile conditions: one line, whole, naming what
# failed: a 620-byte input path keeps its file, line and reason; a --db
# path longer than the system's limit says so; newlines and escape sequences in a path
# are shown escaped; a full file-size limit (ulimit -f) and a locked
# database name the database; output to /dev/full fails; gzip damage says
# what and where, and zero padding after the last member is accepted; a
# failed first ingest leaves no database file behind.
. "$HERE/hostile_lib.sh"
baseline

# expect_text NAME TEXT: the last command's stderr contains TEXT
expect_text() {
	grep -qF -- "$2" "$WORK/err" || echo "FAIL $1_message: wanted '$2' in: $(cat "$WORK/err")"
}

# A path of 6 x 101 bytes + the file name: the message keeps all of it,
# the line number and the reason.
long=$WORK/$(python3 -c 'print("/".join(["p" * 100] * 6))')
mkdir -p "$long"
good_csv "$long/kernel_details.csv"
printf '1,Bad,Add,AI_CORE,1000.000,abc,0,4\r\n' >>"$long/kernel_details.csv"
expect_either long_path_row 0 "$long/kernel_details.csv"
printf 'hello\n' >"$long/notes.txt"
expect_reject long_path_reason 0 "$long/notes.txt"
expect_text long_path_reason "$long/notes.txt: not a format profdb reads"
[ ${#long} -gt 600 ] || echo "FAIL long_path_length: only ${#long} bytes"

# --db longer than the system takes (PATH_MAX; SQLite's own 512 bytes are
# no limit: hostile_longpath): refused with the reason, no file made
toolong=$WORK/$(python3 -c 'print("/".join(["q" * 250] * 17))')/x.db
fail_clean db_path_too_long 0 "" "$toolong" ingest --db "$toolong" "$WORK/good/kernel_details.csv"
expect_text db_path_too_long "the system's limit is 4095"

# a newline and an ESC [ 31 m sequence in a folder name: escaped, one line
odd="$WORK/$(printf 'new\nline\033[31mred')"
mkdir -p "$odd"
printf 'hello\n' >"$odd/notes.txt"
fail_clean path_control_chars 0 notes.txt "$DB" ingest --db "$DB" --run odd "$odd/notes.txt"
expect_text path_control_chars 'new\nline\x1b[31mred/notes.txt'

# ulimit -f: the WAL cannot grow past the limit; SIGXFSZ is ignored and
# the write error is reported naming the database, which stays as it was
python3 - "$WORK/big.csv" <<'PY'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    for i in range(100000):
        f.write("%d,K_%d,K,AI_CORE,%d.000,1.5,0,8\r\n" % (i // 1000, i % 500, 1000 + 3 * i))
PY
before=$(db_state)
(ulimit -f 1024; exec timeout -k 5 "$TMO" "$PROFDB" ingest --db "$DB" --run big "$WORK/big.csv" >"$WORK/out" 2>"$WORK/err")
why=$(bad_status $?)
[ -z "$why" ] && why=$(check_msg "$DB" 0)
[ -z "$why" ] && [ "$(db_state)" != "$before" ] && why="database file changed"
report file_size_limit "$why"
expect_text file_size_limit "a file size limit is set (ulimit -f: "

# a database another process holds locked: the wait (lowered here) ends
# with a message that names it
python3 - "$DB" "$WORK/locked" <<'PY' &
import sqlite3, sys, time, os
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(60)  # killed once the check is done
PY
locker=$!
while [ ! -e "$WORK/locked" ]; do sleep 0.1; done
before=$(db_state)
PROFDB_BUSY_TIMEOUT_MS=300 pd ingest --db "$DB" --run locked "$WORK/good/kernel_details.csv"
why=$(bad_status $?)
[ -z "$why" ] && why=$(check_msg "$DB" 0)
report database_locked "$why"
expect_text database_locked "database is locked (database '$DB')"
kill $locker
wait $locker 2>/dev/null

# output that cannot be written: exit 1 with a message, for ingest too
timeout "$TMO" "$PROFDB" ingest --db "$DB" --run full "$WORK/good/kernel_details.csv" >/dev/full 2>"$WORK/err"
rc=$?
[ $rc = 1 ] && grep -q "cannot write the output" "$WORK/err"
report ingest_dev_full "$([ $? = 0 ] || echo "exit $rc: $(cat "$WORK/err")")"

# gzip damage, made from one good gzip member by python's gzip module
python3 - "$WORK" <<'PY'
import gzip, json, sys
w = sys.argv[1]
doc = json.dumps({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7,
                  "ts": 1000.0, "dur": 5.0, "args": {"device": 0, "stream": 7}}]}).encode()
g = gzip.compress(doc)
def put(name, data):
    open("%s/%s.json.gz" % (w, name), "wb").write(data)
b = bytearray(g); b[-8] ^= 0xff; put("crc", b)          # CRC-32 of the trailer
b = bytearray(g); b[-4] ^= 0x01; put("size", b)         # ISIZE of the trailer
put("truncated", g[:len(g) // 2])
put("garbage", g + b"hello")
put("padded", g + b"\0" * 1000)
put("two_members", gzip.compress(doc[:50]) + gzip.compress(doc[50:]) + b"\0" * 10)  # one text in two members
print(len(g) // 2, file=open(w + "/half", "w"))
PY
expect_reject gzip_bad_crc 1 "$WORK/crc.json.gz"
expect_text gzip_bad_crc "bad CRC"
expect_reject gzip_wrong_size 1 "$WORK/size.json.gz"
expect_text gzip_wrong_size "wrong size"
expect_reject gzip_truncated 1 "$WORK/truncated.json.gz"
expect_text gzip_truncated "byte $(cat "$WORK/half"): truncated gzip stream"
expect_reject gzip_trailing_garbage 1 "$WORK/garbage.json.gz"
expect_text gzip_trailing_garbage "neither gzip nor zero padding"
for f in padded two_members; do
	pd ingest --db "$DB" --run $f "$WORK/$f.json.gz"
	rc=$?
	why=""
	[ $rc != 0 ] && why="exit $rc: $(cat "$WORK/err")"
	[ -z "$why" ] && why=$(check_sound)
	report gzip_$f "$why"
done

# a failed first ingest leaves no database file (nor -wal, -shm)
mkdir -p "$WORK/new"
pd ingest --db "$WORK/new/fresh.db" "$WORK/crc.json.gz"
why=$(bad_status $?)
[ -z "$why" ] && [ -n "$(ls "$WORK/new")" ] && why="left: $(ls "$WORK/new" | tr '\n' ' ')"
report failed_ingest_no_file "$why"
