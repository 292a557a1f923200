# profdb steps streams (issue 20): busy time is the union_ns aggregate in
# its statement, so csv and json rows go out a thousand at a time and a
# table or md past the hold budget (PROFDB_HOLD_BYTES=1 here) is written in
# two passes.  Checked: the two-pass table and md are the bytes of the
# answer held whole, with and without a run column; and python recomputes
# every row of the streamed csv (three parts) and json from the generated
# file: kernels, device total, span, busy (the union of the step's
# intervals: overlaps count once, touching ones join), busy_pct and the top
# kernel (largest total, least name on a tie), the NULL step included.
. "$HERE/hostile_lib.sh"
baseline
mkdir -p "$WORK/st"
python3 - "$WORK/st/kernel_details.csv" <<'PY'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    for s in range(1300):
        base = 1000 + 100 * s
        # 1 to 4 kernels: the second overlaps the first, the third starts as
        # the second ends, the fourth (every fifth step) lies inside the first;
        # durations of whole ns; K_s%7 and K_x tie in some steps
        for j in range(s % 4 + 1):
            start = (base * 1000 + (0, 700, 2900, 100)[j] + s % 13) / 1000
            dur = ((2000, 2200 + s % 5, 1500, 800 + 7 * (s % 3))[j]) / 1000
            name = ("K_%d" % (s % 7), "K_x", "K_%d" % (s % 3), "K_in")[j]
            if j == 3 and s % 5:
                break
            f.write("%s,%s,K,AI_CORE,%.3f,%.3f,0,8\r\n" % ("" if s == 1299 else s, name, start, dur))
PY
pd ingest --db "$DB" --run sa "$WORK/st/kernel_details.csv" || echo "FAIL ingest sa: $(cat "$WORK/err")"
pd ingest --db "$DB" --run sb "$WORK/st/kernel_details.csv" || echo "FAIL ingest sb: $(cat "$WORK/err")"
same_bytes stream_steps_table steps --db "$DB" --run sa
same_bytes stream_steps_table_runs steps --db "$DB" --run sa --run sb --unit us
same_bytes stream_steps_md steps --db "$DB" --run sa --run sb --format md
same_bytes stream_steps_terminal COLUMNS=80 steps --db "$DB" --run sa

# csv and json stream in parts of 1 024 rows: python checks every value
PROFDB_HOLD_BYTES=1 pd steps --db "$DB" --run sa --run sb --format csv --unit ns
cp "$WORK/out" "$WORK/steps.csv"
PROFDB_HOLD_BYTES=1 pd steps --db "$DB" --run sa --run sb --format json --unit ns
python3 - "$WORK/steps.csv" "$WORK/out" "$WORK/st/kernel_details.csv" <<'PY'
import csv, json, sys
from fractions import Fraction
out_csv, out_json, src = sys.argv[1:4]
ns = lambda us: int(Fraction(us) * 1000)
groups = {}
for r in csv.DictReader(open(src, newline="")):
    s = ns(r["Start Time(us)"])
    groups.setdefault(r["Step Id"], []).append((s, s + ns(r["Duration(us)"]), r["Name"]))
def union(iv):
    total, end = 0, None
    for a, b in sorted(iv):
        if end is None or a > end:
            total, end = total + b - a, b
        elif b > end:
            total, end = total + b - end, b
    return total
want = {}
for step, ks in groups.items():
    tot = {}
    for a, b, n in ks:
        tot[n] = tot.get(n, 0) + b - a
    top = min(tot, key=lambda n: (-tot[n], n))
    span = max(b for a, b, n in ks) - min(a for a, b, n in ks)
    busy = union([(a, b) for a, b, n in ks])
    want[step] = (len(ks), sum(b - a for a, b, n in ks), span, busy, 100 * busy / span, tot[top], top)
def check(rows, what):
    bad, seen = 0, 0
    for r in rows:
        step = "" if r["step"] in ("", None) else str(r["step"])
        k, dev, span, busy, pct, tt, top = want[step]
        got = (int(r["kernels"]), int(r["device_total_ns"]), int(r["span_ns"]), int(r["busy_ns"]),
               float(r["busy_pct"]), int(r["top_total_ns"]), r["top_kernel"], int(r["wall_ns"]))
        if got[:4] != (k, dev, span, busy) or abs(got[4] - pct) > 1e-9 * pct or got[5:] != (tt, top, span):
            bad += 1
            if bad < 4:
                print("  %s step %r: got %r want %r" % (what, step, got, want[step]), file=sys.stderr)
        seen += 1
    runs = [r["run"] for r in rows]
    ok = not bad and seen == 2 * len(want) and runs == ["sa"] * len(want) + ["sb"] * len(want)
    print(("ok " if ok else "FAIL ") + "stream_steps_values_" + what +
          ("" if ok else ": %d bad of %d rows" % (bad, seen)))
rows = list(csv.DictReader(open(out_csv, newline="")))
check(rows, "csv")
check(json.load(open(out_json)), "json")
# busy < device total where kernels overlap (the checks above are not vacuous)
print("ok stream_steps_overlap" if any(w[3] < w[1] for w in want.values()) else "FAIL stream_steps_overlap")
PY
