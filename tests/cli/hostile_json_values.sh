# Huge non-string JSON values in a Kineto trace (issue 20): an event whose
# args hold a 20 MB number, an array of 10^7 elements or 10^7 levels of
# nesting is skipped as it is read (never held: the capture bound is
# 16 MiB) and counted; the events around it are stored.  A top-level
# value over the bound refuses the file with one line naming it and the
# byte where the value starts, the database unchanged.  Python writes the
# traces and works out what must be stored; the database is read with
# python's sqlite3.
. "$HERE/hostile_lib.sh"
baseline

python3 - "$WORK" <<'PY'
import sys
w = sys.argv[1]
def ev(name, ts, extra=""):
    return ('{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %d, "dur": 2,'
            ' "args": {"device": 0, "stream": 7%s}}' % (name, ts, extra))
big = 20 << 20
bodies = {
    "number": ("1" + "0" * big, ""),
    "array": ("[" + ",".join(["0"] * (big // 2)) + "]", ""),
    "nested": ("[" * (big // 2), "]" * (big // 2)),
}
for kind, (head, tail) in bodies.items():
    with open(f"{w}/{kind}.json", "w") as f:
        f.write('{"traceEvents": [' + ev("before", 1) + ", ")
        f.write(ev("huge", 5, ', "x": ' + head + tail) + ", ")
        f.write(ev("after", 9) + "]}")
with open(f"{w}/meta.json", "w") as f:
    text = '{"traceEvents": [' + ev("k", 1) + '], "deviceProperties": '
    f.write(text + "[" + ",".join(["0"] * (big // 2)) + "]}")
# the scanner names the byte where the value starts
print("expect byte", len(text), file=open(f"{w}/meta.want", "w"))
PY

for kind in number array nested; do
	pd ingest --db "$DB" --run "j_$kind" "$WORK/$kind.json"
	st=$?
	python3 - "$DB" "$kind" $st "$WORK/out" <<'PY'
import sqlite3, sys
db, kind, st, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
name = f"json_huge_{kind}"
if st != 0:
    print(f"FAIL {name}: ingest exit {st}")
    sys.exit()
con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
got = sorted(r[0] for r in con.execute(
    "SELECT n.value FROM kernel k JOIN run r ON r.id = k.run_id JOIN str n ON n.id = k.name_id"
    " WHERE r.name = ?", ("j_" + kind,)))
con.close()
said = open(out).read()
# 3 events in the file, the huge one skipped: the two around it stored
if got != ["after", "before"]:
    print(f"FAIL {name}: stored {got}")
elif "3 read = 2 kernels + 1 skipped" not in said or "event over 16 MiB" not in said:
    print(f"FAIL {name}: ingest said {said!r}")
else:
    print(f"ok {name}")
PY
done

fail_clean json_huge_meta 1 "$WORK/meta.json" "$DB" ingest --db "$DB" --run j_meta "$WORK/meta.json"
want=$(cut -d' ' -f2- "$WORK/meta.want")
grep -q "meta.json: $want: a single JSON value is larger than 16 MiB" "$WORK/err" &&
	echo "ok json_huge_meta_message" || echo "FAIL json_huge_meta_message: $(cat "$WORK/err")"
rm -f "$WORK"/number.json "$WORK"/array.json "$WORK"/nested.json "$WORK"/meta.json
