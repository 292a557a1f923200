# profdb sql writes csv, json and md rows as they come (a few thousand at
# a time; bench/limits measures the memory): the streamed output must be
# the whole result, checked by python against values it computes itself,
# across part boundaries, with a column that is NULL for its first 2 000
# rows (its type, and md's column alignment, come from its first value),
# and for an empty result.  csv and json keep full precision and compare
# exactly; md, for people, prints a number that is not a count with three
# significant digits, at most three decimals, a whole value as an integer
# (issue 35 item 2), so its cells are compared with that rounding of the
# exact values (Python's %f: 100.5 -> "100", 999.5 -> "1000").
. "$HERE/hostile_lib.sh"
baseline
Q="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
 SELECT x, x * 0.5 AS half, CASE WHEN x > 2000 THEN x * 3 END AS late, 'n,\"' || x AS name FROM c"
for f in csv json md; do
	pd sql --db "$DB" --format $f "$Q"
	why=$(bad_status $?)
	[ "$why" = "accepted (exit 0)" ] && why=""
	[ -z "$why" ] && why=$(python3 - $f "$WORK/out" <<'PY'
import csv, json, math, sys
fmt, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
want = [(x, x * 0.5, x * 3 if x > 2000 else None, 'n,"%d' % x) for x in range(1, 5001)]
if fmt == "csv":
    rows = list(csv.reader(text.splitlines()))
    assert rows[0] == ["x", "half", "late", "name"], rows[0]
    got = [(int(a), float(b), int(c) if c else None, d) for a, b, c, d in rows[1:]]
elif fmt == "json":
    rows = json.loads(text)
    assert all(type(r["late"]) is int for r in rows if r["late"] is not None)
    got = [(r["x"], r["half"], r["late"], r["name"]) for r in rows]
else:
    def md_num(v):
        if v == int(v):
            return str(int(v))
        return "%.*f" % (max(0, min(3, 2 - math.floor(math.log10(abs(v))))), v)
    want = [(str(x), md_num(h), "" if l is None else str(l), n) for x, h, l, n in want]
    lines = text.splitlines()
    assert lines[0] == "| x | half | late | name |", lines[0]
    assert lines[1] == "| ---: | ---: | ---: | :--- |", lines[1]
    got = [tuple(v.strip() for v in line.strip("|").split(" | ")) for line in lines[2:]]
if got != want:
    bad = next(i for i, (g, w) in enumerate(zip(got + [None] * 5001, want)) if g != w)
    print("row %d: %r, expected %r (%d rows)" % (bad + 1, got[bad] if bad < len(got) else None, want[bad], len(got)))
PY
)
	report stream_$f "$why"
done
pd sql --db "$DB" --format json "SELECT 1 AS a WHERE 0" && [ "$(cat "$WORK/out")" = "[]" ]
report stream_json_empty "$([ $? = 0 ] || echo "got: $(cat "$WORK/out" "$WORK/err")")"
pd sql --db "$DB" --format csv "SELECT 1 AS a WHERE 0" && [ "$(cat "$WORK/out")" = "a" ]
report stream_csv_empty "$([ $? = 0 ] || echo "got: $(cat "$WORK/out" "$WORK/err")")"
