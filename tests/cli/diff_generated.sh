# profdb report over generated runs (tests/cli/diff_gen.py writes the store
# and prints every kernel's per-repeat time, computed in Python from the
# durations it generated).  Checked here: the per-repeat times profdb reports
# equal the generator's; B_softmax scaled by 1.3 is the only regression;
# noise alone flags nothing; one step per side is inconclusive; filters.
set -e
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >expected.txt

check() { # BASE NEW [options]: per-kernel verdicts, totals checked against expected.txt
  base=$1 new=$2
  shift 2
  $PROFDB report --db runs.db "$base" "$new" --format csv "$@" >out.csv
  python3 - "$base" "$new" <<'PY'
import csv, sys
base, new = sys.argv[1], sys.argv[2]
want = {}
for line in open("expected.txt"):
    run, kernel, us = line.split()
    want[(run, kernel)] = float(us)
rows = [r for r in csv.DictReader(open("out.csv")) if r["scope"] == "kernel"]
ok = 0
for r in sorted(rows, key=lambda r: r["key"]):
    for side, run in (("base", base), ("new", new)):
        got = float(r[side])
        if abs(got - want[(run, r["key"])]) > 0.0005:
            print("MISMATCH %s %s %s: profdb %.3f, python %.3f" % (run, r["key"], side, got, want[(run, r["key"])]))
        else:
            ok += 1
    print("%s -> %s  %-10s %-12s n=%s/%s" % (base, new, r["key"], r["verdict"], r["n_base"], r["n_new"]))
print("%s -> %s  per-repeat times matching python: %d of %d" % (base, new, ok, 2 * len(rows)))
PY
}

# B_softmax x1.3: 20 vs 20 per-step totals that do not overlap -> regression;
# the others changed by well under the 5% threshold -> unchanged
check base slow
# independent noise (+-2% per launch) -> nothing flagged
check base noise
# one step per side: 1 sample each, no test possible -> inconclusive
check one_a one_b
# Welch's t agrees on the regression
check base slow --test welch
# a name filter and a step range: B only, steps 1..5 -> 5 samples per side
$PROFDB report --db runs.db base slow --format csv --name 'B_*' --steps 1..5 |
  awk -F, '$1 == "kernel" { print "filtered:", $2, $3, "n=" $14 "/" $15 }'
