# diff reads one grouping key at a time (bench/limits measures its memory
# over 100 k names x 1 000 steps) and bounds the bootstrap's work: past
# PROFDB_DIFF_BOOTSTRAP_DRAWS draws (B x (n + m) a key, keys in key order)
# a key keeps its test and verdict but gets no interval, and one warning
# counts them.  Python works out, from the files it wrote, each key's
# per-step mean on both sides and which keys the budget reaches.
. "$HERE/hostile_lib.sh"
baseline
python3 - "$WORK" <<'PY'
import os, sys
w = sys.argv[1]
for side, extra in (("a", 0), ("b", 1)):
    os.makedirs(f"{w}/{side}", exist_ok=True)
    with open(f"{w}/{side}/kernel_details.csv", "w", newline="") as f:
        f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
        ts = 1000
        for step in range(1, 21):
            for i in range(30):
                # key order is not insertion order: names sort as text
                f.write("%d,k%d,K,AI_CORE,%d.000,%d.5,0,8\r\n" % (step, (i * 7) % 30, ts, 1 + i % 4 + extra * (i % 3) + step % 2))
                ts += 5
PY
pd ingest --db "$DB" --run a "$WORK/a/kernel_details.csv" && pd ingest --db "$DB" --run b "$WORK/b/kernel_details.csv" ||
	echo "FAIL ingest: $(cat "$WORK/err")"
check() { # NAME DRAWS: diff a b under that budget, checked by python
	PROFDB_DIFF_BOOTSTRAP_DRAWS=$2 pd diff --db "$DB" a b --format csv
	rc=$?
	why=$([ $rc = 0 ] || [ $rc = 3 ] || echo "exit $rc: $(cat "$WORK/err")")
	[ -z "$why" ] && why=$(python3 - "$WORK" "$2" <<'PY'
import csv, sys
from fractions import Fraction
w, draws = sys.argv[1], int(sys.argv[2])
mean = {}
for side in ("a", "b"):
    for r in csv.DictReader(open(f"{w}/{side}/kernel_details.csv", newline="")):
        mean.setdefault(r["Name"], {}).setdefault(side, Fraction(0))
        mean[r["Name"]][side] += Fraction(r["Duration(us)"]) / 20
per_key = 2000 * (20 + 20)           # --resamples 2000, 20 steps a side
with_ci = sorted(mean)[:draws // per_key]
rows = {r["name"]: r for r in csv.DictReader(open(f"{w}/out", newline=""))}
bad = [n for n in mean if Fraction(rows[n]["base_us"]) != mean[n]["a"] or Fraction(rows[n]["new_us"]) != mean[n]["b"]]
got_ci = sorted(n for n, r in rows.items() if r["ci_low"] != "")
no_p = [n for n, r in rows.items() if r["p"] == ""]
warn = open(f"{w}/err").read()
left = len(mean) - len(with_ci)
if len(rows) != len(mean) or bad:
    print(f"{len(rows)} rows for {len(mean)} names; means differ for {bad[:3]}")
elif got_ci != with_ci or no_p:
    print(f"interval for {got_ci}, expected {with_ci}; no p for {no_p}")
elif left and f"profdb: warning: {left} kernels have no confidence interval" not in warn:
    print(f"warning missing: {warn!r}")
elif not left and "confidence interval" in warn:
    print(f"unexpected warning: {warn!r}")
PY
)
	report "$1" "$why"
}
check diff_budget_all 1000000000
check diff_budget_some 400000
check diff_budget_none 1
