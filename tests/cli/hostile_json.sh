# Hostile trace JSON inputs (testdata/bad/*.json*, plus generated ones: a
# gzip bomb, 1M-level nesting, a 64 MiB name): each is refused with a
# one-line error naming the file (and byte offset where a reader parsed
# it), or handled; never a crash, a hang or a changed database.
. "$HERE/hostile_lib.sh"
B=$PROFDB_TESTDATA/bad
baseline
expect_reject json_truncated 1 "$B/truncated_trace.json"
expect_reject json_truncated_gz 1 "$B/truncated_trace.json.gz"
expect_reject json_garbage 0 "$B/garbage.json"
expect_reject json_garbage_after_header 1 "$B/garbage_after_header.json"
expect_reject json_empty 0 "$B/empty.json"
expect_reject json_empty_object 0 "$B/empty_object.json"
expect_either json_events_not_array 1 "$B/trace_events_not_array.json"
expect_either json_invalid_utf8 1 "$B/invalid_utf8_trace.json"
expect_either json_numbers_out_of_range 1 "$B/numbers_out_of_range_trace.json"
expect_either json_nan_infinity 1 "$B/nan_infinity_trace.json"
expect_either json_negative_zero_dur 1 "$B/negative_zero_dur_trace.json"
expect_either json_wrong_types 1 "$B/wrong_types_trace.json"

# Generated: 1M levels of nesting inside an event (closed), and 1M open
# brackets that never close; a kernel whose name is 64 MiB.
python3 - "$WORK" <<'PY'
import sys
w = sys.argv[1]
head = '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": '
n = 1000000
with open(f"{w}/deep_closed.json", "w") as f:
    f.write(head + "[" * n + "]" * n + "}]}")
with open(f"{w}/deep_open.json", "w") as f:
    f.write(head + "[" * n)
with open(f"{w}/huge_name.json", "w") as f:
    f.write('{"traceEvents": [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",'
            ' "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 1}},'
            ' {"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 2, "dur": 2,'
            ' "args": {"correlation": 1, "device": 0, "stream": 7}, "name": "')
    f.write("K" * (64 << 20))
    f.write('"}]}')
PY
expect_either json_deep_nesting_closed 1 "$WORK/deep_closed.json"
expect_reject json_deep_nesting_open 1 "$WORK/deep_open.json"
expect_either json_huge_name 1 "$WORK/huge_name.json"
rm -f "$WORK/deep_closed.json" "$WORK/deep_open.json" "$WORK/huge_name.json"

# A gzip bomb: 64 MiB of blanks in 64 KiB, against the bound lowered to
# 8 MB through PROFDB_GZIP_MAX_BYTES (the compiled bound is 64 GiB).
python3 - "$WORK/bomb.json.gz" <<'PY'
import gzip, sys
with gzip.open(sys.argv[1], "wb", compresslevel=9) as f:
    f.write(b'{"traceEvents": [')
    blanks = b" " * (1 << 20)
    for _ in range(64):
        f.write(blanks)
    f.write(b"]}")
PY
export PROFDB_GZIP_MAX_BYTES=8000000
expect_reject json_gzip_bomb 0 "$WORK/bomb.json.gz"
unset PROFDB_GZIP_MAX_BYTES
grep -q 'gzip bomb' "$WORK/err" || echo "FAIL json_gzip_bomb_message: $(cat "$WORK/err")"
rm -f "$WORK/bomb.json.gz"

# Names holding SQL are stored verbatim and harmless (expected names read
# from the file by python's json module, stored ones by python's sqlite3).
pd ingest --db "$DB" --run sqlj "$B/sql_names_trace.json"
st=$?
python3 - "$DB" "$B/sql_names_trace.json" $st <<'PY'
import json, sqlite3, sys
db, path, st = sys.argv[1], sys.argv[2], int(sys.argv[3])
if st != 0:
    print(f"FAIL json_sql_names: ingest exit {st}")
    sys.exit()
want = sorted(e["name"] for e in json.load(open(path))["traceEvents"] if e["cat"] == "kernel")
con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
got = sorted(r[0] for r in con.execute(
    "SELECT n.value FROM kernel k JOIN run r ON r.id = k.run_id JOIN str n ON n.id = k.name_id"
    " WHERE r.name = 'sqlj'"))
tables = {r[0] for r in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
kernels = con.execute("SELECT count(*) FROM kernel").fetchone()[0]
con.close()
if got != want:
    print(f"FAIL json_sql_names: stored {got!r}, file has {want!r}")
elif not {"run", "kernel", "str"} <= tables or kernels < 3 + len(want):
    print(f"FAIL json_sql_names: tables {sorted(tables)}, {kernels} kernels")
else:
    print("ok json_sql_names")
PY
