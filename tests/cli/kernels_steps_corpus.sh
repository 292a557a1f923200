# Per-repeat under --steps on a real trace: the tb_plugin resnet50 sample
# (6 ProfilerSteps, 5..10, repeats 6).  The reference reads the raw
# .json.gz with python3 (json + gzip; written from FORMATS.md 5, not from
# profdb's code): device work is every X event of cat Kernel / Memcpy /
# Memset (this 2021 trace's names of kernel / gpu_memcpy / gpu_memset); its step is the ProfilerStep#N span that holds the ts of the
# runtime event with the same correlation id (its launch).  Under --steps
# A..B a repeat is a selected step, so for every kernel name:
#   kernels per_repeat = report base = report new = total in A..B / steps,
# and summary --steps shows repeats = steps, the kernel count and total.
# Before this rule, 'kernels --steps 7' divided step 7's total by all 6
# repeats (dgrad_engine: 13 499 us total, 2 249.8 us per repeat).
set -e
T=$PROFDB_CORPUS/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
$PROFDB ingest -q --db r.db --run a "$T"
$PROFDB ingest -q --db r.db --run b "$T"
RANGES="7 7..8 ..6 9.."
for S in $RANGES; do
  $PROFDB kernels --db r.db --run a --steps $S --format csv >k$S.csv
  $PROFDB summary --db r.db --run a --steps $S --format csv >s$S.csv
  $PROFDB report --db r.db a b --steps $S --resamples 0 --format csv >d$S.csv 2>/dev/null
done
python3 - "$T" $RANGES <<'PY'
import csv, gzip, json, re, sys
from decimal import Decimal
ev = json.load(gzip.open(sys.argv[1], "rt"), parse_float=Decimal)["traceEvents"]
steps, launch = {}, {}
for e in ev:
    if e.get("ph") != "X":
        continue
    m = re.match(r"ProfilerStep#(\d+)$", e.get("name", ""))
    if m and e.get("cat") in ("user_annotation", "cpu_op", "Operator"):
        steps[int(m.group(1))] = (Decimal(e["ts"]), Decimal(e["ts"]) + Decimal(e["dur"]))
    if e.get("cat") in ("cuda_runtime", "Runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        launch[e["args"]["correlation"]] = Decimal(e["ts"])
def check(rng):
    lo, _, hi = rng.partition("..") if ".." in rng else (rng, "", rng)
    sel = [n for n in steps if (not lo or n >= int(lo)) and (not hi or n <= int(hi))]
    tot, calls = {}, 0
    for e in ev:
        if e.get("ph") != "X" or e.get("cat") not in ("Kernel", "Memcpy", "Memset"):
            continue
        t = launch.get(e.get("args", {}).get("correlation"))
        st = [n for n, (a, b) in steps.items() if t is not None and a <= t < b]
        if st and st[0] in sel:
            tot[e["name"]] = tot.get(e["name"], 0) + Decimal(e["dur"])
            calls += 1
    bad = 0
    k = {r["name"]: r for r in csv.DictReader(open("k%s.csv" % rng))}
    d = {r["key"]: r for r in csv.DictReader(open("d%s.csv" % rng)) if r["scope"] == "kernel"}
    for name, t in tot.items():
        want = t / len(sel)
        if name not in k or name not in d:
            print("MISSING", name); bad += 1; continue
        got = [Decimal(k[name]["total_us"]), Decimal(k[name]["per_repeat_us"]),
               Decimal(d[name]["base"]), Decimal(d[name]["new"])]
        if got[0] != t or abs(got[1] - want) > Decimal("0.000001") or abs(got[2] - want) > Decimal("0.0005") \
           or abs(got[3] - want) > Decimal("0.0005"):
            print("MISMATCH", name, t, want, got); bad += 1
    if set(k) != set(tot) or set(d) != set(tot):
        print("NAMES differ"); bad += 1
    s = list(csv.DictReader(open("s%s.csv" % rng)))[0]
    if (int(s["repeats"]), int(s["kernels"]), Decimal(s["total_device_us"])) != (len(sel), calls, sum(tot.values())):
        print("SUMMARY", s, len(sel), calls, sum(tot.values())); bad += 1
    top = max(tot, key=lambda n: tot[n])
    print("--steps %s: %d steps selected, %d kernels, %d names; top %.60s total %s us, per repeat %s us; problems: %d"
          % (rng, len(sel), calls, len(tot), top, tot[top], k[top]["per_repeat_us"], bad))

for rng in sys.argv[2:]:
    check(rng)
PY
