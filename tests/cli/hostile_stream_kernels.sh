# profdb kernels writes csv and json rows as they come (1 024 at a time;
# bench/limits measures its memory over a million names): the output over
# several parts must be the whole answer, checked by python against calls
# and totals it computes from the file it wrote; notes still reach stderr
# once, and an empty answer still says why.
. "$HERE/hostile_lib.sh"
baseline
mkdir -p "$WORK/many"
python3 - "$WORK/many/kernel_details.csv" <<'PY'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    ts = 1000
    for i in range(3000):
        for c in range(i % 3 + 1):
            f.write("%d,k_%04d,K,AI_CORE,%d.000,%d.25,0,8\r\n" % (c + 1, i, ts, i % 7 + 1))
            ts += 20
PY
pd ingest --db "$DB" --run many "$WORK/many/kernel_details.csv" || echo "FAIL ingest: $(cat "$WORK/err")"
for f in csv json; do
	pd kernels --db "$DB" --run many --format $f
	rc=$?
	why=$([ $rc = 0 ] || echo "exit $rc: $(cat "$WORK/err")")
	[ -z "$why" ] && why=$(python3 - $f "$WORK/out" "$WORK/many/kernel_details.csv" <<'PY'
import csv, json, sys
from fractions import Fraction
fmt, path, src = sys.argv[1:4]
want = {}
for r in csv.DictReader(open(src, newline="")):
    calls, total = want.get(r["Name"], (0, Fraction(0)))
    want[r["Name"]] = (calls + 1, total + Fraction(r["Duration(us)"]))
text = open(path).read()
if fmt == "csv":
    rows = list(csv.DictReader(text.splitlines()))
    got = [(r["name"], int(r["calls"]), Fraction(r["total_us"])) for r in rows]
    if text.count("total_us") != 1:
        print("header written %d times" % text.count("total_us"))
else:
    got = [(r["name"], r["calls"], Fraction(str(r["total_us"]))) for r in json.loads(text)]
if sorted(got) != sorted((n, c, t) for n, (c, t) in want.items()):
    print("%d rows, %d names in the file; %d distinct" % (len(got), len(want), len({g[0] for g in got})))
PY
)
	report kernels_stream_$f "$why"
done
pd kernels --db "$DB" --run many --format csv --per-step
report kernels_stream_note "$([ "$(grep -c 'profdb: note: run .many.: per-step figures over 3 steps' "$WORK/err")" = 1 ] ||
	echo "stderr: $(cat "$WORK/err")")"
pd kernels --db "$DB" --run many --format json --name 'nothing*'
report kernels_stream_empty "$([ "$(cat "$WORK/out")" = "[]" ] && grep -q "nothing of run 'many' matches" "$WORK/err" ||
	echo "out: $(cat "$WORK/out"); err: $(cat "$WORK/err")")"
