# diff's kernel lines past the hold budget (8 MiB, lowered here to 1 byte
# with PROFDB_HOLD_BYTES) are not held: they go to a spool (a temporary
# table) and are read back ORDER BY |delta| DESC, key (compare_lines.c),
# and every renderer walks them from there.  Checked: the spooled output is
# the held one byte for byte (diff table, md, csv, json, --top; report md,
# html, json, junit, csv), --fail-on-regression still exits 3, the store
# file is unchanged (the spool is a temporary table); and python,
# from the files it wrote (no profdb code), checks the spooled diff csv and
# report json and junit: each key's per-repeat times, calls, verdict, the
# row order (|delta| descending, then key: the 24 unchanged keys tie at 0,
# a gone and a new key tie at 7 us) and the verdict counts.
#
# 72 keys, 10 steps a side, 1-3 calls a step; key i by i % 6: 0 +50% (no
# overlap of the per-step totals: regression), 1 -30% (improvement), 2 the
# same, 3 +1% (within the 5% threshold), 4 +20% on one step only (MWU p
# 0.64: inconclusive), 5 only in the base (gone) or only in the new runs.
# Every 8th key has a long name that html shortens to one shared label.
. "$HERE/hostile_lib.sh"
python3 - "$WORK" <<'PY'
import os, sys
w = sys.argv[1]
def per_call(i, s, side):
    a = 10 + i
    b = a + 0.25 * (s % 4)
    k = i % 6
    if side == "a" or k == 2:
        return b
    return {0: b + 0.5 * a, 1: b - 0.3 * a, 3: b + 0.01 * a,
            4: b + (2.0 * a if s == 1 else 0)}.get(k, b)
def name(i):
    # every 8th name long, alike at both ends: html shortens them to the
    # same label and numbers them (" #2") over the whole table
    return "void at::native::vectorized_%02d_kernel_with_one_long_shared_tail<float>" % i \
        if i % 8 == 3 else "k_%02d" % i
for side in ("a", "b"):
    os.makedirs(f"{w}/{side}", exist_ok=True)
    rows, ts = [], 1000
    for s in range(1, 11):
        for j in range(72):
            i = (j * 29) % 72               # not in key order
            if (i % 12 == 5 and side == "b") or (i % 12 == 11 and side == "a"):
                continue                    # gone / new
            d = 7.0 if i in (5, 11) else per_call(i, s, side)
            for c in range(1 + i % 3):
                rows.append("%d,%s,K,AI_CORE,%d.000,%.2f,0,8" % (s, name(i), ts, d))
                ts += 200
    with open(f"{w}/{side}/kernel_details.csv", "w", newline="") as f:
        f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
        f.write("\r\n".join(rows) + "\r\n")
PY
pd ingest --db "$DB" --run a "$WORK/a/kernel_details.csv" && pd ingest --db "$DB" --run b "$WORK/b/kernel_details.csv" ||
	echo "FAIL ingest: $(cat "$WORK/err")"

for f in table md csv json; do
	same_bytes spool_diff_$f diff --db "$DB" a b --format $f
done
same_bytes spool_diff_top diff --db "$DB" a b --format md --top 7
for f in md html json junit csv; do
	same_bytes spool_report_$f report --db "$DB" a b --format $f
done
same_bytes spool_diff_json_top diff --db "$DB" a b --format json --top 5
before=$(db_state)
PROFDB_HOLD_BYTES=1 pd diff --db "$DB" a b --format csv --fail-on-regression
rc=$?
report spool_fail_on_regression "$([ $rc = 3 ] || echo "exit $rc, expected 3: $(cat "$WORK/err")")"
# the spool is temporary: the store file is as it was, no WAL left
report spool_store_unchanged "$([ "$(db_state)" = "$before" ] && [ ! -s "$DB-wal" ] || echo "database changed")"

# the spooled outputs, checked by python
PROFDB_HOLD_BYTES=1 pd diff --db "$DB" a b --format csv && cp "$WORK/out" "$WORK/diff.csv"
PROFDB_HOLD_BYTES=1 pd report --db "$DB" a b --format json && cp "$WORK/out" "$WORK/report.json"
PROFDB_HOLD_BYTES=1 pd report --db "$DB" a b --format junit && cp "$WORK/out" "$WORK/report.xml"
python3 - "$WORK" <<'PY'
import csv, json, math, sys
import xml.etree.ElementTree as ET
from fractions import Fraction
w = sys.argv[1]
STEPS, ALPHA, THRESHOLD = 10, 0.01, Fraction(5, 100)
tot, calls = {}, {}   # key -> side -> per-step totals (us) / calls
for side in ("a", "b"):
    for r in csv.DictReader(open(f"{w}/{side}/kernel_details.csv", newline="")):
        t = tot.setdefault(r["Name"], {}).setdefault(side, [Fraction(0)] * STEPS)
        t[int(r["Step Id"]) - 1] += Fraction(r["Duration(us)"])
        calls.setdefault(r["Name"], {}).setdefault(side, 0)
        calls[r["Name"]][side] += 1

def mwu_p(x, y):
    # two-sided Mann-Whitney U, normal approximation with tie and
    # continuity correction (the totals tie within a side here)
    n, m = len(x), len(y)
    u = sum((a > b) + Fraction(1, 2) * (a == b) for a in x for b in y)
    allv = sorted(x + y)
    ties = sum(allv.count(v) ** 3 - allv.count(v) for v in set(allv))
    N = n + m
    var = n * m / 12 * ((N + 1) - ties / (N * (N - 1)))
    z = max(abs(float(u) - n * m / 2) - 0.5, 0) / math.sqrt(var)
    return math.erfc(z / math.sqrt(2))

want = {}
for k in tot:
    a, b = tot[k].get("a"), tot[k].get("b")
    base = sum(a) / STEPS if a else Fraction(0)
    new = sum(b) / STEPS if b else Fraction(0)
    d = new - base
    if not a or not b:
        v = "gone" if a else "new"
    elif abs(d) <= THRESHOLD * base:
        v = "unchanged"
    elif mwu_p(a, b) < ALPHA:     # 10 a side: the smallest p (2/C(20,10)) is below alpha
        v = "regression" if d > 0 else "improvement"
    else:
        v = "inconclusive"
    want[k] = (base, new, d, v, Fraction(calls[k].get("a", 0), STEPS), Fraction(calls[k].get("b", 0), STEPS))
order = sorted(want, key=lambda k: (-abs(want[k][2]), k))
counts = {}
for k in want:
    counts[want[k][3]] = counts.get(want[k][3], 0) + 1

def close(got, exp):
    return abs(Fraction(got) - exp) <= Fraction(1, 10 ** 6)

def check_csv():
    rows = list(csv.DictReader(open(f"{w}/diff.csv", newline="")))
    keys = [r["name"] for r in rows]
    if keys != order:
        return f"row order {keys[:6]}..., expected {order[:6]}..."
    for r in rows:
        base, new, d, v, cb, cn = want[r["name"]]
        if not (close(r["base_us"], base) and close(r["new_us"], new) and close(r["delta_us"], d)):
            return f"{r['name']}: times {r['base_us']} {r['new_us']}, expected {float(base)} {float(new)}"
        if not (close(r["base_calls"], cb) and close(r["new_calls"], cn)):
            return f"{r['name']}: calls {r['base_calls']} {r['new_calls']}, expected {cb} {cn}"
        if r["verdict"] != v or r["n_base"] != "10" or r["n_new"] != "10":
            return f"{r['name']}: verdict {r['verdict']} n {r['n_base']}/{r['n_new']}, expected {v} 10/10"
    return ""

def no_constant(s):
    raise ValueError("not JSON: " + s)

def check_json():
    doc = json.loads(open(f"{w}/report.json").read(), parse_constant=no_constant)
    ks = doc["kernels"]
    if [k["key"] for k in ks] != order:
        return "json kernels out of order"
    for k in ks:
        base, new, d, v, cb, cn = want[k["key"]]
        if not (close(str(k["base"]), base) and close(str(k["new"]), new) and k["verdict"] == v and
                close(str(k["base_calls"]), cb) and close(str(k["new_calls"]), cn)):
            return f"json {k['key']}: {k}"
    if any(doc["counts"].get(v, 0) != counts.get(v, 0) for v in set(counts) | set(doc["counts"])):
        return f"json counts {doc['counts']}, expected {counts}"
    return ""

def check_junit():
    root = ET.parse(f"{w}/report.xml").getroot()
    suite = root.find("testsuite[@name='kernels']")
    cases = suite.findall("testcase")
    if [c.get("name") for c in cases] != order:
        return "junit testcases out of order"
    for c in cases:
        base, new, d, v, cb, cn = want[c.get("name")]
        fail, skip = c.find("failure") is not None, c.find("skipped") is not None
        if fail != (v == "regression") or skip != (v == "inconclusive"):
            return f"junit {c.get('name')}: failure {fail} skipped {skip}, verdict {v}"
        if abs(Fraction(c.get("time")) - new / 10 ** 6) > Fraction(1, 10 ** 12):
            return f"junit {c.get('name')}: time {c.get('time')}, expected {float(new) / 1e6}"
    if (suite.get("tests"), suite.get("failures"), suite.get("skipped")) != \
       (str(len(want)), str(counts["regression"]), str(counts["inconclusive"])):
        return f"junit suite counts {suite.attrib}"
    return ""

for name, f in (("spool_python_csv", check_csv), ("spool_python_json", check_json),
                ("spool_python_junit", check_junit)):
    why = f()
    print(f"ok {name}" if not why else f"FAIL {name}: {why}")
PY
