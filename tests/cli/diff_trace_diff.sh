# Acceptance: HolisticTraceAnalysis trace_diff control vs test (two Kineto
# traces of 2022, 6 ProfilerSteps each, from different machines).  The
# reference below reads the raw .json.gz with python3 (json + gzip, written
# from FORMATS.md section 5 and the per-repeat rule of issue 32 item 6, not
# from profdb's code): device work is every X event of cat kernel /
# gpu_memcpy / gpu_memset; a run's repeats are its ProfilerStep#N spans; an
# activity belongs to the step whose span holds the start of the runtime
# call that launched it (same args.correlation); one with no launch record
# (the test trace: 614 activities, 56.517 ms, launched before the runtime
# capture began) is outside every step and in no sample.  Per repeat = the
# mean of the per-step totals (a step a kernel did not run in counts 0).
# Checked: every kernel's per-repeat time on both sides equals the
# reference; the new/gone sets are the names with in-step time on one side
# only; each p equals the reference's exact two-sided Mann-Whitney p over
# the 6 vs 6 per-step totals (all 924 splits, midranks); and the verdicts
# follow from the reference: regression/improvement only where the change
# exceeds the 5% threshold in that direction and p < alpha 0.01, unchanged
# only within it, inconclusive where it exceeds it but p >= 0.01.  The
# warnings name both machines and the work outside every step.
set -e
D=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db hta.db --run control "$D/control/control.json.gz"
$PROFDB ingest -q --db hta.db --run test "$D/test/test.json.gz"
$PROFDB report --db hta.db control test --format csv -o hta.csv 2>hta.err
python3 - "$D/control/control.json.gz" "$D/test/test.json.gz" hta.csv hta.err <<'PY'
import csv, gzip, json, re, sys
from decimal import Decimal
from itertools import combinations

DEVICE = ("kernel", "gpu_memcpy", "gpu_memset")

def load(path):
    ev = json.load(gzip.open(path, "rt"), parse_float=Decimal)["traceEvents"]
    ns = lambda v: int(Decimal(v) * 1000)
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(m.group(1)))
                   for e in ev if e.get("ph") == "X" and e.get("cat") in ("user_annotation", "cpu_op")
                   for m in [re.match(r"ProfilerStep#(\d+)$", e.get("name", ""))] if m)
    call = {e["args"]["correlation"]: ns(e["ts"]) for e in ev
            if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver")
            and "correlation" in e.get("args", {})}
    per = {}            # name -> [ns in step 0, 1, ...]
    out = [0, 0]
    for e in ev:
        if e.get("ph") != "X" or e.get("cat") not in DEVICE:
            continue
        t = call.get(e.get("args", {}).get("correlation"))
        k = next((i for i, (lo, hi, _) in enumerate(steps) if t is not None and lo <= t < hi), None)
        if k is None:
            out[0] += 1; out[1] += ns(e["dur"]); continue
        per.setdefault(e["name"], [0] * len(steps))[k] += ns(e["dur"])
    return per, len(steps), out

def exact_p(a, b):
    """Two-sided exact Mann-Whitney p: the share of the C(n,k) splits of the
    pooled samples (midranks) whose rank sum lies at least as far from its
    mean as the observed one."""
    pool = a + b
    order = sorted(range(len(pool)), key=lambda i: pool[i])
    rank = [0.0] * len(pool)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and pool[order[j + 1]] == pool[order[i]]:
            j += 1
        for k in range(i, j + 1):
            rank[order[k]] = (i + j) / 2 + 1
        i = j + 1
    mu = len(a) * (len(pool) + 1) / 2
    obs = abs(sum(rank[:len(a)]) - mu)
    splits = list(combinations(range(len(pool)), len(a)))
    return sum(abs(sum(rank[i] for i in s) - mu) >= obs - 1e-9 for s in splits) / len(splits)

(ca, na, oa), (cb, nb, ob) = load(sys.argv[1]), load(sys.argv[2])
rows = list(csv.DictReader(open(sys.argv[3])))
kern = {r["key"]: r for r in rows if r["scope"] == "kernel"}
print("steps: control %d, test %d" % (na, nb))
for side, (n, t) in (("control", oa), ("test", ob)):
    print("outside every step, %s: %d device activities (%.3f us)" % (side, n, t / 1000))
print("kernel names with time in a step: control %d, test %d, compared %d" % (len(ca), len(cb), len(kern)))
bad = 0
for name in sorted(set(kern) - set(ca) - set(cb)):
    print("EXTRA (no time in any step)", name); bad += 1
for name in sorted(set(ca) | set(cb)):
    r = kern.get(name)
    if r is None:
        print("MISSING", name); bad += 1; continue
    for side, per, n in (("base", ca, na), ("new", cb, nb)):
        want = sum(per.get(name, [0])) / n / 1000
        got = float(r[side]) if r[side] else 0.0
        if abs(got - want) > 0.0005:
            print("MISMATCH %s %s: profdb %.3f, python %.3f" % (name, side, got, want)); bad += 1
    v = r["verdict"]
    p = None
    if name in ca and name in cb:
        p = exact_p(ca[name], cb[name])
        if (r["p_value"] == "" or abs(float(r["p_value"]) - p) > 1e-4 * p
                or (r["n_base"], r["n_new"]) != (str(na), str(nb))):
            print("P %s: profdb %s (n %s, %s), python %.7g" % (name, r["p_value"], r["n_base"], r["n_new"], p)); bad += 1
    a, b = sum(ca.get(name, [0])) / na, sum(cb.get(name, [0])) / nb
    rel = (b - a) / a if a else None
    ok = (v == "new" and name not in ca) or (v == "gone" and name not in cb) or (
        p is not None and (
            (v == "regression" and rel > 0.05 and p < 0.01) or
            (v == "improvement" and rel < -0.05 and p < 0.01) or
            (v == "unchanged" and abs(rel) <= 0.05) or
            (v == "inconclusive" and abs(rel) > 0.05 and p >= 0.01)))
    if not ok:
        print("VERDICT %s: %s with change %s, p %s" % (name, v, rel, p)); bad += 1
counts = {}
for r in kern.values():
    counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
print("verdicts:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))
print("only in control: %d, only in test: %d" % (len(set(ca) - set(cb)), len(set(cb) - set(ca))))
dev = [r for r in rows if r["scope"] == "run" and r["key"] == "device time"][0]
tot = lambda per: sum(sum(v) for v in per.values())
print("device time per repeat: control %.3f us (python %.3f), test %.3f us (python %.3f): %s" % (
    float(dev["base"]), tot(ca) / na / 1000, float(dev["new"]), tot(cb) / nb / 1000, dev["verdict"]))
for line in open(sys.argv[4]):  # the csv rows are data; warnings on stderr
    if line.startswith("profdb: warning: "):
        print("warning:", line[len("profdb: warning: "):].rstrip("\n"))
print("problems:", bad)
PY
