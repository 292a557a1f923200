# Every table shows its answer first, at any width (issue 35 items 1-2):
# at COLUMNS=80 and 120, on real dumps (the kineto tb_plugin resnet50
# sample and HTA's NCCL trace from testdata/corpus, the Ascend level1
# ranks, the benchmark files), kernels, apis, ops, steps and each analysis
# keep the headline columns the issue names, never the --sort column
# hidden, and a column empty in every row (a headline one too: ranks'
# compute_z of two ranks) goes first, named on its own line.  python3 checks each printed header against these lists (written
# here from the issue, not from the code) and every line's width.
C=$PROFDB_CORPUS
D=$PROFDB_TESTDATA
$PROFDB ingest -q --db h.db --run resnet \
  "$C/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" || exit 1
$PROFDB ingest -q --db h.db --run nccl \
  "$C/HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz" || exit 1
cp -r "$D/ascend/level1" asc && $PROFDB ingest -q --db h.db --run asc asc || exit 1
$PROFDB ingest -q --db b.db --run npu --tag backend=npu --tag api=torch.matmul \
  "$D/ascend/level1/rank0_ascend_pt" || exit 1
$PROFDB ingest -q --db b.db --run cpu --tag backend=cpu "$D/bench/wallclock.csv" || exit 1
$PROFDB ingest -q --db b.db --run pyb "$D/bench/pytest_benchmark.json" || exit 1
$PROFDB ingest -q --db w.db --run cpu --tag backend=cpu "$D/bench/wallclock.csv" || exit 1
export PROFDB_DB=h.db
show() { # name, then the command line
  n=$1; shift
  for w in 80 120; do
    echo "== $n COLUMNS=$w"
    COLUMNS=$w $PROFDB "$@" 2>&1 | tee "$n.$w.txt" || exit 1
  done
}
show kernels kernels --top 4
show kernels_sort kernels --top 4 --sort stddev
show apis apis --db b.db
show apis_wallclock apis --db w.db
show ops ops --run resnet --top 4
show steps steps --run resnet
show breakdown breakdown --run nccl
show collectives collectives
show idle idle --run nccl
show ranks ranks --run asc
show launches launches --run nccl --name 'void cudnn*'
show bandwidth bandwidth --run resnet
show flops flops --run resnet --name 'aten::[alm]*'
python3 - <<'PY'
import re
must = {
    "kernels": ["total", "per_repeat", "calls", "name"],
    "kernels_sort": ["total", "calls", "name", "stddev"],
    "apis": ["per_repeat", "stddev", "median"],
    "apis_wallclock": ["per_repeat", "stddev", "median"],
    "ops": ["host_self", "device_self", "name"],
    "steps": ["wall", "busy"],
    "breakdown": ["busy", "compute", "communication", "idle"],
    "collectives": ["collective", "calls", "total", "algbw_gbps", "busbw_gbps"],
    "idle": ["idle", "host_wait"],
    "ranks": ["compute", "communication", "compute_z"],
    "launches": ["calls", "start_delay_median", "name"],
    "bandwidth": ["bytes", "gbps"],
    "flops": ["calls", "device", "tflops"],
}
for n, cols in must.items():
    for w in (80, 120):
        lines = open("%s.%d.txt" % (n, w)).read().splitlines()
        head = [h for h in lines if not h.startswith("note")][0]
        shown = []
        for h in re.split(r"\s{2,}", head.strip()):
            m = re.match(r"(.*) \((us|ns|ms|s|%)\)$", h)
            shown.append(h if not m else m.group(1) + ("_pct" if m.group(2) == "%" else ""))
        empty = " ".join(l for l in lines if l.startswith("(empty in every row"))
        for c in cols:
            assert c in shown or re.search(r"\b%s\b" % c, empty), (n, w, c, shown)
        for l in lines:
            assert len(l) <= w or re.match(r"\[\d+\] ", l), (n, w, l)
# the wall-clock runs record no device time: those columns are empty in
# every row and named as such at 80 columns
assert "(empty in every row: total_device, total_cpu, kernels)" in open("apis_wallclock.80.txt").read()
print("headline columns shown at 80 and 120")
PY
