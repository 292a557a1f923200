# The ingest summary's row counts add up and say what the rows became
# (issue 12, item 13): "N read = K kernels + O ops + L runtime calls + R other
# + S skipped", and files where nothing is a row (profiler_info*.json) get
# no line.  Python counts the same categories from the raw files: Kineto
# traceEvents (device = X events of cat kernel/gpu_memcpy/gpu_memset; ops =
# X cpu_op/user_annotation; runtime calls = X cuda_runtime; the rest: metadata,
# flows, instants, the Trace span), and the Ascend CSV rows.
set -u
K1=$PROFDB_CORPUS/param/et_replay/tests/inputs/linear_kineto.json.gz
K2=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_compare/base/base.json.gz
A=$PROFDB_TESTDATA/ascend/level1
$PROFDB ingest --db t.db --run k1 "$K1" >out.txt || echo "ingest k1 failed"
$PROFDB ingest --db t.db --run k2 "$K2" >>out.txt || echo "ingest k2 failed"
$PROFDB ingest --db t.db --run a "$A" >>out.txt || echo "ingest a failed"
sed -e "s|$PROFDB_CORPUS|CORPUS|" -e "s|$PROFDB_TESTDATA|TESTDATA|" out.txt
python3 - "$K1" "$K2" "$A" <<'PY'
import csv, gzip, json, re, sys
lines = [l for l in open("out.txt") if l.startswith("  /") or l.startswith("  CORPUS")]
got = {}
for l in lines:
    m = re.match(r"  (\S+) \[[^]]*\]: (\d+) read = (.*)$", l)
    parts = {}
    for p in m.group(3).split(" + "):
        n, what = p.split(" ", 1)
        parts[what.split(" ")[0]] = int(n)
    if sum(parts.values()) != int(m.group(2)):
        print("does not add up:", l.strip())
    got[m.group(1)] = (int(m.group(2)), parts)
def kineto(f):
    ev = json.load(gzip.open(f))["traceEvents"]
    X = lambda cats: sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") in cats)
    k, o, l = X(("kernel", "gpu_memcpy", "gpu_memset")), X(("cpu_op", "user_annotation")), X(("cuda_runtime",))
    want = {"kernels": k, "ops": o, "runtime": l, "skipped": 0}
    if len(ev) - k - o - l:
        want["other"] = len(ev) - k - o - l
    return len(ev), want
want = {sys.argv[1]: kineto(sys.argv[1]), sys.argv[2]: kineto(sys.argv[2])}
for r in (0, 1):
    out = f"{sys.argv[3]}/rank{r}_ascend_pt/ASCEND_PROFILER_OUTPUT/"
    n = lambda f: len(list(csv.DictReader(open(out + f, newline=""))))
    want[out + "kernel_details.csv"] = (n("kernel_details.csv"), {"kernels": n("kernel_details.csv"), "skipped": 0})
    want[out + "operator_details.csv"] = (n("operator_details.csv"), {"ops": n("operator_details.csv"), "skipped": 0})
    for f in ("step_trace_time.csv", "op_statistic.csv"):
        want[out + f] = (n(f), {"summary": n(f), "skipped": 0})
print("python agrees" if got == want else f"python differs:\n{got}\n{want}")
PY
