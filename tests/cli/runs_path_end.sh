# runs keeps a path's file-name end when it shortens a path (issue 35 item
# 3): three benchmark files in a deep folder, at 120 and 150 columns.  The
# cell of source_path is the stored path (the csv's, read apart) shortened
# to the column: python3 checks that each shown cell fits the column, ends
# with "/" and the file's name (os.path.basename) when those fit, else with
# the name's end, and that the cells tell the three files apart.  Printed:
# the cells from their "..." on (the head holds this run's temporary folder).
set -e
B=$PROFDB_TESTDATA/bench
D=$WORK/results/of/the/nightly/operator/benchmark/on/host-1
mkdir -p "$D"
cp "$B/cpu_ops.csv" "$B/pytest_benchmark.json" "$B/wallclock.jsonl" "$D/"
for f in cpu_ops.csv pytest_benchmark.json wallclock.jsonl; do
  $PROFDB ingest -q --db r.db "$D/$f"
done
$PROFDB runs --db r.db --format csv >runs.csv
for cols in 120 150; do
  COLUMNS=$cols $PROFDB runs --db r.db >t.txt
  python3 - runs.csv t.txt $cols <<'PY'
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1])))
lines = open(sys.argv[2]).read().split("\n")
head, rule = lines[0], lines[1]
start = head.find("source_path")
if start < 0:
    print("COLUMNS=%s: source_path hidden" % sys.argv[3]); sys.exit(0)
width = len(rule[start:].split()[0])
cells = [l[start:start + width].rstrip() for l in lines[2:2 + len(rows)]]
print("COLUMNS=%s: source_path %d columns wide" % (sys.argv[3], width))
for r, c in zip(rows, cells):
    path = r["source_path"]
    name = "/" + os.path.basename(path)
    ok = (c == path) or (len(c) <= width and (c.endswith(name) if len(name) + 6 <= width
                                               else c.startswith("...") and path.endswith(c[3:])))
    print("  %-16s %-28s ends with its file name: %s" % (r["name"], "..." + c[c.rfind("...") + 3:] if "..." in c else c, ok))
print("  cells tell the files apart: %s" % (len(set(cells)) == len(cells)))
PY
done
