# profdb ingest of testdata/ascend/level1 (two ranks of a trimmed torch_npu
# Level1 export) and the stored sums of a few kernels, the run's device time
# and host CPU time.  The same numbers are computed here with python3's csv
# module over the raw files (decimal us -> ns, half up) and must agree; the
# golden file then pins the output.
set -eu
D=$PROFDB_TESTDATA/ascend/level1
NAMES="'hcom_allReduce__586_0_1','aclnnInplaceCopy_TensorMoveAiCore_TensorMove','aclnnMm_MatMulCommon_MatMulV2','Conv2D1'"
$PROFDB ingest --db t.db --run l1 --quiet "$D"
$PROFDB sql --db t.db --format csv "SELECT name, calls, CAST(round(total_us * 1000) AS INTEGER) AS total_ns,
  CAST(round(min_us * 1000) AS INTEGER) AS min_ns, CAST(round(max_us * 1000) AS INTEGER) AS max_ns
  FROM kernel_summary WHERE run = 'l1' AND name IN ($NAMES) ORDER BY name" >got.csv
$PROFDB sql --db t.db --format csv "SELECT kernels, CAST(round(total_device_us * 1000) AS INTEGER) AS device_ns,
  CAST(round(total_cpu_us * 1000) AS INTEGER) AS cpu_ns FROM run_summary WHERE run = 'l1'" >>got.csv
$PROFDB sql --db t.db --format csv "SELECT rank, step FROM step ORDER BY rank, step" >>got.csv
python3 - "$D" "$NAMES" >want.csv <<'PY'
import csv, sys
from decimal import Decimal, ROUND_HALF_UP
folder, names = sys.argv[1], [n.strip("'") for n in sys.argv[2].split(",")]
def ns(text):
    return int((Decimal(text.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
durs, cpu, steps = {}, 0, set()
for rank in (0, 1):
    out = f"{folder}/rank{rank}_ascend_pt/ASCEND_PROFILER_OUTPUT/"
    with open(out + "kernel_details.csv", newline="") as f:
        for row in csv.DictReader(f):
            durs.setdefault(row["Name"], []).append(ns(row["Duration(us)"]))
            if row["Step Id"]:
                steps.add((rank, int(row["Step Id"])))
    with open(out + "operator_details.csv", newline="") as f:
        cpu += sum(ns(row["Host Self Duration(us)"]) for row in csv.DictReader(f))
    with open(out + "step_trace_time.csv", newline="") as f:
        steps |= {(rank, int(row["Step"])) for row in csv.DictReader(f) if row["Step"]}
print("name,calls,total_ns,min_ns,max_ns")
for n in sorted(names):
    d = durs[n]
    print(f"{n},{len(d)},{sum(d)},{min(d)},{max(d)}")
print("kernels,device_ns,cpu_ns")
print(f"{sum(len(d) for d in durs.values())},{sum(sum(d) for d in durs.values())},{cpu}")
print("rank,step")
for r, s in sorted(steps):
    print(f"{r},{s}")
PY
diff want.csv got.csv
cat got.csv
