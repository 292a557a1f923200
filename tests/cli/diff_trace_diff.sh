# Acceptance: HolisticTraceAnalysis trace_diff control vs test (two Kineto
# traces of 2022, 6 ProfilerSteps each, from different machines).  The
# reference below reads the raw .json.gz with python3 (json + gzip, written
# from FORMATS.md section 5, not from profdb's code): device work is every
# X event of cat kernel / gpu_memcpy / gpu_memset; a run's repeats are its
# ProfilerStep#N spans; per repeat = sum of dur / repeats.
# Checked: every kernel's per-repeat time on both sides equals the
# reference; the new/gone sets are the names on one side only; and the
# verdicts follow from the reference totals: regression/improvement only
# where the change exceeds the 5% threshold in that direction, unchanged
# only within it, inconclusive where it exceeds it but the U test (6 vs 6
# per-step samples, smallest p 2/924 = 0.0022 < alpha 0.01) is not
# significant.  The device warning names both machines.
set -e
D=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db hta.db --run control "$D/control/control.json.gz"
$PROFDB ingest -q --db hta.db --run test "$D/test/test.json.gz"
$PROFDB report --db hta.db control test --format csv -o hta.csv 2>hta.err
python3 - "$D/control/control.json.gz" "$D/test/test.json.gz" hta.csv hta.err <<'PY'
import csv, gzip, json, re, sys
from decimal import Decimal

def load(path):
    ev = json.load(gzip.open(path, "rt"), parse_float=Decimal)["traceEvents"]
    tot, steps = {}, set()
    for e in ev:
        if e.get("ph") != "X":
            continue
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            tot[e["name"]] = tot.get(e["name"], 0) + int(Decimal(e["dur"]) * 1000)
        m = re.match(r"ProfilerStep#(\d+)$", e.get("name", ""))
        if m and e.get("cat") in ("user_annotation", "cpu_op"):
            steps.add(int(m.group(1)))
    return tot, len(steps)

(ca, na), (cb, nb) = load(sys.argv[1]), load(sys.argv[2])
rows = list(csv.DictReader(open(sys.argv[3])))
kern = {r["key"]: r for r in rows if r["scope"] == "kernel"}
print("steps: control %d, test %d" % (na, nb))
print("kernel names: control %d, test %d, compared %d" % (len(ca), len(cb), len(kern)))
bad = 0
for name in sorted(set(ca) | set(cb)):
    r = kern.get(name)
    if r is None:
        print("MISSING", name); bad += 1; continue
    for side, tot, n in (("base", ca, na), ("new", cb, nb)):
        want = tot.get(name, 0) / n / 1000
        got = float(r[side]) if r[side] else 0.0
        if abs(got - want) > 0.0005:
            print("MISMATCH %s %s: profdb %.3f, python %.3f" % (name, side, got, want)); bad += 1
    v = r["verdict"]
    a, b = ca.get(name, 0) / na, cb.get(name, 0) / nb
    rel = (b - a) / a if a else None
    want_v = {"new": name not in ca, "gone": name not in cb}
    ok = (v == "new" and want_v["new"]) or (v == "gone" and want_v["gone"]) or (
        name in ca and name in cb and (
            (v == "regression" and rel > 0.05 and float(r["p_value"]) < 0.01) or
            (v == "improvement" and rel < -0.05 and float(r["p_value"]) < 0.01) or
            (v == "unchanged" and abs(rel) <= 0.05) or
            (v == "inconclusive" and abs(rel) > 0.05 and float(r["p_value"]) >= 0.01)))
    if not ok:
        print("VERDICT %s: %s with change %s" % (name, v, rel)); bad += 1
counts = {}
for r in kern.values():
    counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
print("verdicts:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))
print("only in control: %d, only in test: %d" % (len(set(ca) - set(cb)), len(set(cb) - set(ca))))
dev = [r for r in rows if r["scope"] == "run" and r["key"] == "device time"][0]
print("device time per repeat: control %.3f us (python %.3f), test %.3f us (python %.3f): %s" % (
    float(dev["base"]), sum(ca.values()) / na / 1000, float(dev["new"]), sum(cb.values()) / nb / 1000, dev["verdict"]))
for line in open(sys.argv[4]):  # the csv rows are data; warnings on stderr
    if line.startswith("profdb: warning: "):
        print("warning:", line[len("profdb: warning: "):].rstrip("\n"))
print("problems:", bad)
PY
