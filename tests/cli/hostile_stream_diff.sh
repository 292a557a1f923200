# diff's kernel table past the hold budget (8 MiB, lowered here to 1 byte
# with PROFDB_HOLD_BYTES) is built and written 1 024 rows at a time from the
# comparison's lines (compare_write.c): the bytes must be those of the
# table held whole in csv, table, md and under --top (for a terminal: as
# --wide writes it, which also shows that the parts were taken: held, the
# names would be shortened); and python checks the streamed csv itself
# against the runs it generated: each key's per-repeat times, calls, sample
# counts, verdict and the row order (|delta| descending, then key), 2 500
# keys in three parts.
. "$HERE/hostile_lib.sh"
mkdir -p "$WORK/a" "$WORK/b"
python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
HEAD = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n"
def dur_ns(i, step, side):
    base = (i % 97 + 1) * 1000 + 7 * step
    if side == "b" and i % 3 == 1:
        return base * 3 // 2        # +50%: over the threshold
    if side == "b" and i % 3 == 2:
        return base + base // 100   # +1%: within the 5% threshold
    return base
for side in ("a", "b"):
    with open("%s/%s/kernel_details.csv" % (work, side), "w", newline="") as f:
        f.write(HEAD)
        ts = 1000000
        for step in (1, 2, 3):
            for i in range(2500):
                if (side == "a" and i % 10 == 1) or (side == "b" and i % 10 == 0):
                    continue        # i % 10 == 0: gone; == 1: new
                d = dur_ns(i, step, side)
                f.write("%d,k_%04d%s,K,AI_CORE,%d.000,%d.%03d,0,8\r\n"
                        % (step, i, "y" * (i % 37), ts, d // 1000, d % 1000))
                ts += 10 + d // 1000
PY
pd ingest --db "$DB" --run a "$WORK/a/kernel_details.csv" || echo "FAIL ingest a: $(cat "$WORK/err")"
pd ingest --db "$DB" --run b "$WORK/b/kernel_details.csv" || echo "FAIL ingest b: $(cat "$WORK/err")"

same_bytes stream_diff_csv diff --db "$DB" a b --format csv
same_bytes stream_diff_table diff --db "$DB" a b
same_bytes stream_diff_wide COLUMNS=80 diff --db "$DB" a b --wide
# for a terminal: the kernel table as --wide writes it (names whole); the
# whole-run table above it is not streamed and is fitted as ever
COLUMNS=80 pd diff --db "$DB" a b --wide
sed -n '/^name /,$p' "$WORK/out" >"$WORK/whole"
COLUMNS=80 PROFDB_HOLD_BYTES=1 pd diff --db "$DB" a b
sed -n '/^name /,$p' "$WORK/out" >"$WORK/streamed"
[ -s "$WORK/whole" ] && cmp -s "$WORK/whole" "$WORK/streamed" && echo "ok stream_diff_terminal" ||
	echo "FAIL stream_diff_terminal: $(diff "$WORK/whole" "$WORK/streamed" | head -5)"
same_bytes stream_diff_md diff --db "$DB" a b --format md
same_bytes stream_diff_top diff --db "$DB" a b --top 1500
grep -q '1500 of 2500 kernels shown' "$WORK/streamed" && echo "ok stream_diff_top_note" ||
	echo "FAIL stream_diff_top_note: $(tail -3 "$WORK/streamed")"

# the streamed csv against python's figures from the generated rows
PROFDB_HOLD_BYTES=1 pd diff --db "$DB" a b --format csv
python3 - "$WORK/out" "$WORK/a/kernel_details.csv" "$WORK/b/kernel_details.csv" <<'PY'
import csv, sys
from fractions import Fraction
out, fa, fb = sys.argv[1:4]
def sums(path):
    s = {}
    for r in csv.DictReader(open(path, newline="")):
        n, t = s.get(r["Name"], (0, Fraction(0)))
        s[r["Name"]] = (n + 1, t + Fraction(r["Duration(us)"]))
    return s
a, b = sums(fa), sums(fb)
REPEATS = 3                         # three steps a run
want = {}
for k in set(a) | set(b):
    ca, ta = a.get(k, (0, Fraction(0)))
    cb, tb = b.get(k, (0, Fraction(0)))
    base, new = ta / REPEATS, tb / REPEATS
    if not ca or not cb:
        verdict = "gone" if ca else "new"
    elif abs(new - base) <= Fraction(5, 100) * base:
        verdict = "unchanged"
    else:                           # 3 samples a side: MWU cannot reach alpha
        verdict = "inconclusive"
    want[k] = (base, new, Fraction(ca, REPEATS), Fraction(cb, REPEATS), verdict)
order = sorted(want, key=lambda k: (-abs(want[k][1] - want[k][0]), k.encode()))
rows = list(csv.DictReader(open(out, newline="")))
bad = []
if [r["name"] for r in rows] != order:
    bad.append("row order")
# csv writes times in us to the picosecond (6 decimals), counts exactly
close = lambda got, x: abs(Fraction(got) - x) <= Fraction(1, 2 * 10 ** 6)
for r in rows:
    base, new, cba, cbb, verdict = want.get(r["name"], (0, 0, 0, 0, "?"))
    if not (close(r["base_us"], base) and close(r["new_us"], new) and
            close(r["delta_us"], new - base) and close(r["base_calls"], cba) and
            close(r["new_calls"], cbb) and r["n_base"] == "3" and r["n_new"] == "3" and
            r["verdict"] == verdict):
        bad.append(r["name"])
kinds = sorted(set(w[4] for w in want.values()))
if bad or len(rows) != 2500:
    print("FAIL stream_diff_values: %d rows, wrong: %s" % (len(rows), ", ".join(bad[:5])))
else:
    print("ok stream_diff_values (%s)" % ", ".join(kinds))
PY
