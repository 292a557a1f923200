# The same file reached twice within one run is read once, with a note
# (issue 12, items 4 and 20): a symbolic link latest_ascend_pt ->
# rank0_ascend_pt, and a trace next to a byte-identical copy.  Were either
# read twice, rank 0 would hold two sources (refused) or its kernels twice.
# Expected counts are python's, from the raw files.
set -u
mkdir -p a k
cp -r "$PROFDB_TESTDATA/ascend/level1/rank0_ascend_pt" a/
ln -s rank0_ascend_pt a/latest_ascend_pt
cp "$PROFDB_TESTDATA/kineto/nested.json" k/a.json
cp "$PROFDB_TESTDATA/kineto/nested.json" k/b.json
for d in a k; do
  $PROFDB ingest --db t.db "$d" >out.txt || echo "ingest $d failed"
  grep "note: .*read once" out.txt
  $PROFDB sql --db t.db --format csv "SELECT count(*) AS kernels, sum(dur_ns) AS device_ns,
    (SELECT count(*) FROM source_file s WHERE s.run_id = r.id) AS sources
    FROM kernel k JOIN run r ON r.id = k.run_id WHERE r.name = '$d'"
done >got.txt
python3 - "$PROFDB_TESTDATA" >want.txt <<'PY'
import csv, json, sys
from decimal import Decimal, ROUND_HALF_UP
ns = lambda t: int((Decimal(t.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
rows = list(csv.DictReader(open(sys.argv[1] + "/ascend/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", newline="")))
print("  note: a/latest_ascend_pt: the same content as 'a/rank0_ascend_pt' (a link or a copy): read once")
# profiler_info_0.json, kernel_details, operator_details, step_trace_time, op_statistic
print(f"kernels,device_ns,sources\n{len(rows)},{sum(ns(r['Duration(us)']) for r in rows)},5")
ev = json.load(open(sys.argv[1] + "/kineto/nested.json"))["traceEvents"]
dev = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
print("  note: k/b.json: the same content as 'k/a.json' (a link or a copy): read once")
print(f"kernels,device_ns,sources\n{len(dev)},{sum(round(e['dur'] * 1000) for e in dev)},1")
PY
diff want.txt got.txt && echo "duplicates read once: python agrees"
