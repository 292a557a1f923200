# profdb apis: per run and API the harness's fields, for a profiled Ascend
# dump tagged backend=npu api=torch.matmul, a wall-clock CSV tagged
# backend=cpu and a pytest-benchmark file (repeats and a summary-only API),
# against an independent reading of the raw files (Python, exact decimals):
# profiler: per_repeat = sum(Duration) / steps, total_cpu = sum(Host Self
# Duration), kernels = rows; wallclock: mean, sample stddev and median of
# the repeats; summary: the file's mean, stddev, median and rounds.
D=$PROFDB_TESTDATA
A=$D/ascend/level1/rank0_ascend_pt
$PROFDB ingest -q --db a.db --run npu --tag backend=npu --tag api=torch.matmul "$A" || exit 1
$PROFDB ingest -q --db a.db --run cpu --tag backend=cpu "$D/bench/wallclock.csv" || exit 1
$PROFDB ingest -q --db a.db --run pyb "$D/bench/pytest_benchmark.json" || exit 1
$PROFDB apis --db a.db --format csv --unit ns >apis.csv || exit 1
$PROFDB apis --db a.db 2>&1 | grep '^note'
python3 - "$A/ASCEND_PROFILER_OUTPUT" "$D/bench" apis.csv <<'PY'
import csv, json, statistics, sys
from decimal import Decimal
out, bench, got = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {(r["run"], r["api"]): r for r in csv.DictReader(open(got))}
def ns(us): return Decimal(us.strip()) * 1000
want = {}
k = list(csv.DictReader(open(out + "/kernel_details.csv")))
steps = {r["Step Id"] for r in k}
dur = sum(ns(r["Duration(us)"]) for r in k)
cpu = sum(ns(r["Host Self Duration(us)"]) for r in csv.DictReader(open(out + "/operator_details.csv")))
want[("npu", "torch.matmul")] = dict(backend="npu", source="profiler", repeats=len(steps),
    per_repeat=dur / len(steps), total_device=dur, total_cpu=cpu, kernels=len(k))
reps = {}
for r in csv.DictReader(open(bench + "/wallclock.csv")):
    try:
        t = Decimal(r["elapsed_us"])
    except Exception:
        continue
    if t >= 0:
        reps.setdefault(r["api"], []).append(t * 1000)
doc = json.load(open(bench + "/pytest_benchmark.json"), parse_float=Decimal)
for b in doc["benchmarks"]:
    st = b["stats"]
    if st.get("data"):
        reps[("pyb", b["name"])] = [x * 10**9 for x in st["data"]]
    else:
        want[("pyb", b["name"])] = dict(backend="", source="summary", repeats=st["rounds"],
            per_repeat=st["mean"] * 10**9, stddev=st["stddev"] * 10**9, median=st["median"] * 10**9)
for api, xs in reps.items():
    run, name = api if isinstance(api, tuple) else ("cpu", api)
    want[(run, name)] = dict(backend="cpu" if run == "cpu" else "", source="wallclock",
        repeats=len(xs), per_repeat=sum(xs) / len(xs), stddev=statistics.stdev(xs),
        median=statistics.median(xs))
if set(want) != set(rows):
    print("MISMATCH rows", sorted(rows), sorted(want)); sys.exit(1)
for key in sorted(want):
    for col, v in want[key].items():
        g = rows[key].get(col, rows[key].get(col + "_ns"))
        ok = g == str(v) if isinstance(v, str) else abs(Decimal(g) - Decimal(v)) <= Decimal("0.001")
        if not ok:
            print("MISMATCH", key, col, g, v); sys.exit(1)
    print("ok", key[0], key[1], ", ".join("%s=%s" % (c, rows[key].get(c, rows[key].get(c + "_ns"))) for c in want[key]))
PY
