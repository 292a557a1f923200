# Every Kineto trace of the corpus ingests, and what profdb stored equals an
# independent computation over the raw events (python3 json with exact
# decimals, written from FORMATS.md section 5, not from profdb's code):
# per kernel name calls/total/min/max ns, kernels per step (through the
# launching runtime call), the step spans and the run's total device time.
C=$PROFDB_CORPUS
for f in \
  HolisticTraceAnalysis/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
  HolisticTraceAnalysis/tests/data/call_stack/backward_thread.json \
  HolisticTraceAnalysis/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz \
  HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz \
  HolisticTraceAnalysis/tests/data/distributed_info_unavailable/distributed_info_not_found.json.gz \
  HolisticTraceAnalysis/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz \
  HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz \
  HolisticTraceAnalysis/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
  HolisticTraceAnalysis/tests/data/trace_compare/base/base.json.gz \
  HolisticTraceAnalysis/tests/data/trace_compare/test/test.json.gz \
  HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz \
  HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz \
  HolisticTraceAnalysis/tests/data/trace_filter/sampled_rank-0.json.gz \
  HolisticTraceAnalysis/tests/data/trace_filter/sampled_rank-1.json.gz \
  HolisticTraceAnalysis/tests/data/triton_example/triton_example.json.gz \
  TraceLens/tests/traces/mi210/gpu_only_trace/gpu_only_trace.json.gz \
  TraceLens/tests/traces/torch_compile_triton/trace.json.gz \
  kineto/tb_plugin/samples/resnet50_autograd_api_num_workers_0/worker0.pt.trace.json.gz \
  kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz \
  kineto/tb_plugin/test/gpu_metrics_input.json \
  param/et_replay/tests/inputs/linear_kineto.json.gz
do
  $PROFDB ingest -q --db t.db --run "$f" "$C/$f" || echo "ingest failed: $f"
done
python3 - "$C" <<'PY'
import gzip, json, sqlite3, sys
from decimal import Decimal, ROUND_HALF_UP

DEVICE = {"kernel", "gpu_memcpy", "gpu_memset", "mtia_ccp_events", "Kernel", "Memcpy", "Memset"}
RUNTIME = {"cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime", "privateuse1_runtime",
           "privateuse1_driver", "xpu_runtime", "xpu_driver", "mlu_runtime"}
HOST_STEP = {"user_annotation", "Operator", "cpu_op"}

def ns(v):
    # µs text (number or string) to ns, exact, half away from zero
    d = Decimal(str(v)) * 1000
    return int(d.to_integral_value(rounding=ROUND_HALF_UP)) if d >= 0 else -int((-d).to_integral_value(rounding=ROUND_HALF_UP))

def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal)
    if isinstance(doc, list):
        return doc, 0, None
    di = doc.get("distributedInfo") or {}
    return doc["traceEvents"], int(doc.get("baseTimeNanoseconds", 0)), di.get("rank")

def reference(path):
    events, base, rank = load(path)
    kernels, steps, launch_ts = {}, {}, {}
    for e in events:
        if e.get("ph") != "X":
            continue
        cat, args = e.get("cat"), e.get("args") or {}
        if cat in RUNTIME and "correlation" in args:
            launch_ts[int(args["correlation"])] = base + ns(e["ts"])
        name = e.get("name", "")
        if cat in HOST_STEP and name.startswith("ProfilerStep#"):
            n = int(name[len("ProfilerStep#"):])
            s, t = base + ns(e["ts"]), base + ns(e["ts"]) + ns(e["dur"])
            o = steps.get(n)
            steps[n] = (min(s, o[0]), max(t, o[1])) if o else (s, t)
    per_name, per_step, total = {}, {}, 0
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in DEVICE:
            continue
        d = ns(e["dur"])
        total += d
        c = per_name.setdefault(e["name"], [0, 0, None, None])
        c[0] += 1; c[1] += d
        c[2] = d if c[2] is None else min(c[2], d)
        c[3] = d if c[3] is None else max(c[3], d)
        corr = (e.get("args") or {}).get("correlation")
        lts = launch_ts.get(int(corr)) if corr is not None else None
        step = None
        if lts is not None:
            inside = [n for n, (s, t) in steps.items() if s <= lts < t]
            step = min(inside) if inside else None
        per_step[step] = per_step.get(step, 0) + 1
    return per_name, per_step, steps, total

db = sqlite3.connect("t.db")
for (run,) in db.execute("SELECT name FROM run ORDER BY name"):
    per_name, per_step, steps, total = reference(sys.argv[1] + "/" + run)
    got = {r[0]: list(r[1:]) for r in db.execute(
        "SELECT n.value, count(*), sum(k.dur_ns), min(k.dur_ns), max(k.dur_ns) FROM kernel k"
        " JOIN str n ON n.id = k.name_id JOIN run r ON r.id = k.run_id WHERE r.name = ?"
        " GROUP BY n.value", (run,))}
    summ = {r[0]: r[1:] for r in db.execute(
        "SELECT name, calls, total_us, min_us, max_us FROM kernel_summary WHERE run = ?", (run,))}
    got_steps = {r[0]: (r[1], r[2]) for r in db.execute(
        "SELECT step, start_ns, end_ns FROM step s JOIN run r ON r.id = s.run_id WHERE r.name = ?", (run,))}
    got_per_step = {r[0]: r[1] for r in db.execute(
        "SELECT step, count(*) FROM kernel k JOIN run r ON r.id = k.run_id WHERE r.name = ?"
        " GROUP BY step", (run,))}
    (dev_us,) = db.execute("SELECT total_device_us FROM run_summary WHERE run = ?", (run,)).fetchone()
    bad = []
    if got != per_name:
        bad.append("kernels by name differ: %d vs %d names" % (len(got), len(per_name)))
    for n, (calls, tot, mn, mx) in per_name.items():
        s = summ.get(n)
        if not s or s[0] != calls or abs(s[1] - tot / 1000) > 1e-6 * max(1, tot / 1000) \
           or abs(s[2] - mn / 1000) > 1e-9 * max(1, mn) or abs(s[3] - mx / 1000) > 1e-9 * max(1, mx):
            bad.append("kernel_summary row for %r" % n)
            break
    if got_steps != steps:
        bad.append("steps %r vs %r" % (sorted(got_steps.items())[:3], sorted(steps.items())[:3]))
    if got_per_step != per_step:
        bad.append("kernels per step %r vs %r" % (got_per_step, per_step))
    if abs(dev_us - total / 1000) > 1e-6 * max(1, total / 1000):
        bad.append("total device %r vs %r" % (dev_us, total / 1000))
    print(("ok " if not bad else "MISMATCH ") + run, "; ".join(bad))
PY
# The two-rank set is one run with ranks 0 and 1 (from distributedInfo.rank).
$PROFDB ingest -q --db t.db --run two $C/HolisticTraceAnalysis/tests/data/trace_filter
python3 -c "
import sqlite3
db = sqlite3.connect('t.db')
print('two-rank run: ranks', db.execute(\"SELECT ranks FROM run WHERE name = 'two'\").fetchone()[0],
      'kernels per rank', db.execute(\"SELECT group_concat(rank || ':' || n) FROM (SELECT k.rank, count(*) AS n FROM kernel k JOIN run r ON r.id = k.run_id WHERE r.name = 'two' GROUP BY k.rank ORDER BY k.rank)\").fetchone()[0])
"
