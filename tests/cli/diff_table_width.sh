# The diff table for people (issue 16 "Tables"): at 80, 120 and 200
# columns (COLUMNS) every line of both tables fits, except the footnotes
# that list full names; --top N keeps the N largest |delta| rows and says
# so; shortened names stay distinct (numbered [k], listed below) and stand
# for their names (arguments, scopes, template parameters or a middle cut); p and
# the mean call counts are rounded to 3 and 6 significant digits; reasons
# are shown whole or not at all.  Checked by python3 against the csv of the
# same comparison (exact values; its own rounding and sort by |delta|).
set -e
D=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db hta.db --run control "$D/control/control.json.gz"
$PROFDB ingest -q --db hta.db --run test "$D/test/test.json.gz"
$PROFDB diff --db hta.db control test --format csv --resamples 0 >all.csv 2>/dev/null
for w in 80 120 200; do
  COLUMNS=$w $PROFDB diff --db hta.db control test --top 6 --resamples 0 >t$w.txt
done
python3 - all.csv <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
top = sorted(rows, key=lambda r: (-abs(float(r["delta_us"])), r["name"]))[:6]

def stands_for(cell, foot, name):
    """A name cell is the name, marked [k] (the footnote holds the name),
    or the name shortened: each "..." in the cell stands for some of the
    name's text (an argument list "(...)", template parameters "<...>", a
    cut middle), and a leading "void " and scopes ("at::native::") may go."""
    m = re.search(r" \[(\d+)\]$", cell)
    if m:
        return foot.get(int(m.group(1))) == name
    pat = ".+".join(re.escape(p) for p in cell.split("..."))
    bare = re.sub(r"(?:\(anonymous namespace\)|[A-Za-z_]\w*)::", "", re.sub(r"^void ", "", name))
    return any(re.fullmatch(pat, n) for n in (name, bare))

for w in (80, 120, 200):
    lines = open("t%d.txt" % w).read().split("\n")
    blocks = "\n".join(lines).split("\n\n")    # warnings, whole-run table, kernel table
    kern = blocks[2].split("\n")
    head = re.split(r"  +", kern[0].strip())
    cols = [len(c) for c in kern[1].split("  ")]
    data = [l for l in kern[2:] if l and not l.startswith(("[", "note:", "(", " "))]
    foot = {int(m.group(1)): m.group(2) for m in (re.match(r"\[(\d+)\] (.*)", l) for l in kern) if m}
    table = [l for b in blocks[1:] for l in b.split("\n") if l and not l.startswith(("[", "note:"))]
    names = [l[:cols[0]].rstrip() for l in data]
    print("width %d: widest table line %d; %d rows; names distinct %s, the top 6 by |delta| in order %s;"
          " columns: %s; reasons whole: %s; %s" % (
        w, max(len(l) for l in table), len(data), len(set(names)) == len(names),
        all(stands_for(n, foot, r["name"]) for n, r in zip(names, top)), ", ".join(head),
        "why" not in head or all(r["why"] in l for r, l in zip(top, data)),
        [l for l in kern if l.startswith("note:")][0]))
# rounding: p at 200 columns is csv's exact p to 3 significant digits
t = open("t200.txt").read()
for r in top[:3]:
    if r["p"]:
        print("p %s shown as %s: %s" % (r["p"], "%.3g" % float(r["p"]), (" %.3g " % float(r["p"])) in t))
PY
