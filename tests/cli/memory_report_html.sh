# report --table memory --format html draws each side's memory --timeline
# as an inline SVG line per device: the points the chart carries
# (data-values of each polyline) equal `memory --timeline --format csv
# --unit ns` of that side's run, series by series; the page has no script
# and no external reference.  base is testdata/memory/trace_totals.json,
# new the same with the 1052076-byte peak made 1062076.
T=$PROFDB_TESTDATA/memory/trace_totals.json
sed 's/1052076/1062076/' "$T" >new.json
$PROFDB ingest -q --db d.db --run base "$T" || exit 1
$PROFDB ingest -q --db d.db --run new new.json || exit 1
$PROFDB report --db d.db --table memory base new --format html >r.html || exit 1
$PROFDB memory --db d.db --run base --timeline --format csv --unit ns >base.csv || exit 1
$PROFDB memory --db d.db --run new --timeline --format csv --unit ns >new.csv || exit 1
grep -c '<polyline' r.html
grep -ci '<script\|src=\|href=\|url(' r.html
python3 - r.html <<'PY' || exit 1
import csv, re, sys
html = open(sys.argv[1]).read()
got = {}
for side, series, values in re.findall(r'<polyline[^>]*data-side="(\w+)" data-series="([^"]*)" data-values="([^"]*)"', html):
    got[(side, series)] = [tuple(int(x) for x in p.split(",")) for p in values.split(";") if p]
want = {}
for side in ("base", "new"):
    for r in csv.DictReader(open(side + ".csv")):
        if r["allocated_bytes"] == "":
            continue
        k = (side, "rank %s %s:%s%s" % (r["rank"], r["device_type"], r["device_id"],
                                         " " + r["component"] if r["component"] else ""))
        want.setdefault(k, []).append((int(r["at_ns"]), int(r["allocated_bytes"])))
assert got == want, (got, want)
for k in sorted(got):
    print(k[0], k[1], "points", len(got[k]), "max", max(b for _, b in got[k]))
PY
