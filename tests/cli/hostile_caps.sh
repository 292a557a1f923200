# Length caps at ingest (issue 20), on generated inputs: a name over
# 65536 bytes is stored cut (at a UTF-8 character boundary) and ending with
# "...[truncated]", 65536 bytes at most, and the run says how many were cut;
# the row itself (its time) is kept.  A CSV field over 16 MiB refuses the
# file at its line.  A trace string of any size (a name, an ignored arg)
# is read without being held whole.  Python works out the expected stored
# values from the names it wrote; the database is read with python's sqlite3.
. "$HERE/hostile_lib.sh"
baseline

python3 - "$WORK" <<'PY'
import json, os, sys
w = sys.argv[1]
hdr = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n"
os.makedirs(w + "/long", exist_ok=True)
with open(w + "/long/kernel_details.csv", "w", encoding="utf-8", newline="") as f:
    f.write(hdr)
    f.write("1,K" + "\u00e9" * 40000 + ",T,AI_CORE,1000.000,1.5,0,8\r\n")
    f.write('1,"Q' + "\u20ac" * 30000 + '",T,AI_CORE,1002.000,2.25,0,8\r\n')
    f.write("1,short,T,AI_CORE,1004.000,3,0,8\r\n")
os.makedirs(w + "/field", exist_ok=True)
with open(w + "/field/kernel_details.csv", "w", newline="") as f:
    f.write(hdr)
    f.write("1,ok,T,AI_CORE,1000.000,1.5,0,8\r\n")
    f.write("1,N,T,AI_CORE,1002.000,2.0,0,8," + "F" * (17 << 20) + "\r\n")
# a trace: a 5 MiB name twice, a name of 200 000 \u escapes (1.2 MB of
# text, 400 000 bytes decoded), a 20 MiB ignored arg, a 65536-byte name
# (at the cap: kept whole) and a short one
big = "k" + "x" * (5 << 20)
esc = "\u00e9" * 200000
at_cap = "c" * 65536
ev = []
for i, (name, args) in enumerate([(big, {}), (big, {}), (esc, {}), ("junk", {"junk": "j" * (20 << 20)}),
                                  (at_cap, {}), ("small", {})]):
    a = {"device": 0, "stream": 7}
    a.update(args)
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
               "ts": 1000 + 10 * i, "dur": 1 + i, "args": a})
with open(w + "/long.json", "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": ev}, f)   # ensure_ascii: \u escapes
PY

# expected: the names as python reads them back, each cut by the rule
check_names() { # NAME FILE KIND: compare the run's kernels with the file's
	python3 - "$DB" "$1" "$2" "$3" <<'PY'
import csv, json, sqlite3, sys
db, run, path, kind = sys.argv[1:5]
MAX, MARK = 65536, b"...[truncated]"
def cut(s):
    b = s.encode("utf-8")
    if len(b) <= MAX:
        return b
    k = MAX - len(MARK)
    while k > 0 and (b[k] & 0xC0) == 0x80:
        k -= 1
    return b[:k] + MARK
if kind == "csv":
    rows = list(csv.DictReader(open(path, encoding="utf-8", newline="")))
    want = [(cut(r["Name"]), round(float(r["Duration(us)"]) * 1000)) for r in rows]
    names = [r["Name"] for r in rows]
else:
    evs = json.load(open(path))["traceEvents"]
    want = [(cut(e["name"]), e["dur"] * 1000) for e in evs]
    names = [e["name"] for e in evs]
ncut = sum(len(n.encode("utf-8")) > MAX for n in names)
con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
con.text_factory = bytes
got = [tuple(r) for r in con.execute(
    "SELECT n.value, k.dur_ns FROM kernel k JOIN run r ON r.id = k.run_id JOIN str n ON n.id = k.name_id"
    " WHERE r.name = ? ORDER BY k.start_ns", (run,))]
notes = [r[0].decode() for r in con.execute(
    "SELECT note FROM run_note JOIN run r ON r.id = run_id WHERE r.name = ?", (run,))]
want_note = f"{ncut} names or other texts truncated to 65536 bytes (they end with ...[truncated])"
if got != want:
    print(f"FAIL names_{run}: {len(got)} kernels stored, {len(want)} in the file; first difference at"
          f" {next((i for i, (g, x) in enumerate(zip(got, want)) if g != x), min(len(got), len(want)))}")
elif ncut == 0 or want_note not in notes:
    print(f"FAIL names_{run}: notes {notes!r}, want {want_note!r}")
elif max(len(g[0]) for g in got) > MAX:
    print(f"FAIL names_{run}: a name over {MAX} bytes")
else:
    print(f"ok names_{run}")
PY
}

pd ingest --db "$DB" --run csv_long "$WORK/long/kernel_details.csv"
rc=$?
report csv_long_name_exit "$([ $rc = 0 ] || echo "exit $rc: $(cat "$WORK/err")")"
grep -qx '  note: 2 names or other texts truncated to 65536 bytes (they end with ...\[truncated\])' "$WORK/out" ||
	echo "FAIL csv_long_name_note: $(cat "$WORK/out")"
check_names csv_long "$WORK/long/kernel_details.csv" csv

pd ingest --db "$DB" --run json_long "$WORK/long.json"
rc=$?
report json_long_name_exit "$([ $rc = 0 ] || echo "exit $rc: $(cat "$WORK/err")")"
check_names json_long "$WORK/long.json" json

# A field over 16 MiB: refused at its line, the database unchanged.
expect_reject csv_field_over_cap 1 "$WORK/field/kernel_details.csv"
grep -q 'kernel_details.csv:3: field or row longer than 16 MiB' "$WORK/err" ||
	echo "FAIL csv_field_over_cap_message: $(cat "$WORK/err")"
