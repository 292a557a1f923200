# torch_npu trace_view.json as a rank's only device data (issue 12, item 6):
# its "Ascend Hardware" compute tasks become kernels (core = Task Type),
# MEMCPY_ASYNC tasks memcpy, and the HCCL ops of the "... Communication"
# thread communication.  Python reads the same trace_view.json and the
# kernel_details.csv of the same folder: per name, the stored kernels and
# communication ops must be exactly kernel_details' rows (count; each start
# and duration within 1 ns: the timeline prints more digits, e.g.
# 2281.1055625 us where kernel_details has 2281.105).  A lone trace_view.json
# (msprof-analyze, 2024: Task Type "Other" on its 274 op kernels, which
# count when named after an op, not a runtime task like EVENT_RECORD) is
# read the same way; beside a kernel_details.csv it is skipped with a note.
set -u
S=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt
M=$PROFDB_CORPUS/msprof-analyze/test/ut/advisor/timeline_advice/trace_view.json
mkdir -p x/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
cp "$S/profiler_info_0.json" x/rank0_ascend_pt/
cp "$S/ASCEND_PROFILER_OUTPUT/trace_view.json" x/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/
$PROFDB ingest --db t.db --run tv x | sed 1d
$PROFDB ingest --db t.db --run lone "$M" | sed -e 1d -e "s|$PROFDB_CORPUS|CORPUS|"
$PROFDB ingest --db t.db --run csv "$S" | grep "trace_view" | sed "s|$PROFDB_CORPUS|CORPUS|"
for r in tv lone; do
  $PROFDB sql --db t.db --format csv "SELECT s.value AS name, kd.name AS kind, k.start_ns, k.dur_ns FROM kernel k
    JOIN run r ON r.id = k.run_id JOIN str s ON s.id = k.name_id JOIN kind kd ON kd.id = k.kind
    WHERE r.name = '$r' ORDER BY k.start_ns, s.value" >$r.csv
done
python3 - "$S/ASCEND_PROFILER_OUTPUT" "$M" <<'PY'
import csv, json, re, sys
from decimal import Decimal, ROUND_HALF_UP
ns = lambda t: int((Decimal(str(t).strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
def device(path):  # (name, kind, start_ns, dur_ns) of the rows a trace_view gives
    ev = json.load(open(path))
    procs = {e["pid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"}
    comm = {(e["pid"], e["tid"]) for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"
            and "Communication" in e["args"]["name"]}
    out = []
    for e in ev:
        if e.get("ph") != "X" or "cat" in e:
            continue
        p, tt = procs.get(e["pid"]), e.get("args", {}).get("Task Type", "")
        if p == "HCCL" and (e["pid"], e["tid"]) in comm:
            kind = "communication"
        elif p == "Ascend Hardware" and e["name"] == "MEMCPY_ASYNC":
            kind = "memcpy"
        elif p == "Ascend Hardware" and (tt.startswith(("AI_", "MIX_", "FFTS")) or tt == "DSA_SQE"):
            kind = "kernel"
        elif p == "Ascend Hardware" and tt in ("Other", "") and not re.fullmatch(r"[A-Z0-9_]*", e["name"]):
            kind = "kernel"  # older exports: Task Type "Other" on op kernels
        else:
            continue
        out.append((e["name"], kind, ns(e["ts"]), ns(repr(e["dur"]))))
    return sorted(out, key=lambda r: (r[2], r[0]))
def stored(f):
    return [(r["name"], r["kind"], int(r["start_ns"]), int(r["dur_ns"])) for r in csv.DictReader(open(f))]
for run, path in (("tv", sys.argv[1] + "/trace_view.json"), ("lone", sys.argv[2])):
    want = device(path)
    print(run, len(want), "rows;", "python agrees" if stored(run + ".csv") == want else "python DIFFERS")
# the same capture's kernel table: every non-memcpy row, one to one
kd = sorted((r["Name"], ns(r["Start Time(us)"]), ns(r["Duration(us)"]))
            for r in csv.DictReader(open(sys.argv[1] + "/kernel_details.csv", newline="")))
tv = sorted((n, s, d) for n, k, s, d in stored("tv.csv") if k != "memcpy")
close = len(kd) == len(tv) and all(a[0] == b[0] and abs(a[1] - b[1]) <= 1 and abs(a[2] - b[2]) <= 1
                                   for a, b in zip(kd, tv))
print(f"kernel_details.csv {len(kd)} rows, trace_view {len(tv)} kernels + communication:",
      "the same within 1 ns" if close else "DIFFERENT")
PY
