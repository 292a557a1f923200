# Host-op nesting on every Kineto trace of the corpus (issue 13/15: ops are
# nested as they arrive, or by the SQL pass when out of start order; issue
# 32 item 5: runtime calls are nested with them), checked against an
# independent computation over the raw events (python3 json, written from
# torch's key_averages rule, not from profdb's code): per tid, host ops and
# runtime calls (cuda_runtime, cuda_driver, mtia_runtime, ...; those with a
# correlation id: the launch rows profdb keeps) sorted by
# (start, end descending, ops before calls, file order); an event is a child
# of the innermost open event it starts before the end of and ends by the
# end of; self = duration - direct children's durations (a call may hold
# ops and calls: MTIA's gif_merge).  Each call is an op row of its own, no
# device times.  For traces whose device External ids are op ids, device
# self = durations of the device events with the op's External id, device
# total = own + all descendants' (calls have none of their own).
# (2021 traces spell it "external id" on device events.  Traces whose External ids are correlation ids are linked through launches:
# op_link.c's tests check those; here their self times only.)  The last
# column: ops with a negative self time (none may have one).
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

HOST = {"cpu_op", "user_annotation", "Operator"}
CALL = {"cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime", "privateuse1_runtime", "privateuse1_driver",
        "xpu_runtime", "xpu_driver", "mlu_runtime"}
DEVICE = {"kernel", "gpu_memcpy", "gpu_memset", "mtia_ccp_events", "Kernel", "Memcpy", "Memset"}

def ns(v):
    d = Decimal(str(v)) * 1000
    return int(d.to_integral_value(rounding=ROUND_HALF_UP))

def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal)
    return doc if isinstance(doc, list) else doc["traceEvents"]

def reference(path):
    events = load(path)
    ops, dev, both, differ = [], {}, 0, 0
    for i, e in enumerate(events):
        if e.get("ph") != "X" or "dur" not in e or "ts" not in e:
            continue
        a = e.get("args") or {}
        if e.get("cat") in DEVICE:
            x, c = a.get("External id", a.get("external id")), a.get("correlation")  # 2021: lower case
            if x is not None and c is not None:
                both += 1
                differ += int(x) != int(c)
            if x is not None:
                dev[int(x)] = dev.get(int(x), 0) + ns(e["dur"])
        elif e.get("cat") in HOST or (e.get("cat") in CALL and "correlation" in a):
            call = e.get("cat") in CALL
            x = None if call else a.get("External id")
            ops.append({"name": e["name"], "tid": str(e.get("tid")), "s": ns(e["ts"]), "d": ns(e["dur"]),
                        "call": call, "i": i, "x": None if x is None else int(x), "kids": [],
                        "self": ns(e["dur"])})
    linked = both > 0 and differ == 0   # External ids are correlation ids: not checked here
    ops.sort(key=lambda o: (o["tid"], o["s"], -(o["s"] + o["d"]), o["call"], o["i"]))
    stack = []
    for o in ops:
        while stack and not (stack[-1]["tid"] == o["tid"] and o["s"] < stack[-1]["s"] + stack[-1]["d"]
                             and o["s"] + o["d"] <= stack[-1]["s"] + stack[-1]["d"]):
            stack.pop()
        if stack:
            stack[-1]["kids"].append(o)
            stack[-1]["self"] -= o["d"]
        stack.append(o)
    for o in reversed(ops):   # children sort after their parents
        o["ds"] = None if o["x"] is None else dev.get(o["x"], 0)
        o["dt"] = (o["ds"] or 0) + sum(k["dt"] for k in o["kids"])
    for o in ops:
        if o["call"]:
            o["ds"] = o["dt"] = None
    return ops, linked

db = sqlite3.connect("t.db")
for (run,) in db.execute("SELECT name FROM run ORDER BY name"):
    ops, linked = reference(sys.argv[1] + "/" + run)
    got = sorted(db.execute(
        "SELECT n.value, o.dur_ns, o.self_ns, o.device_self_ns, o.device_total_ns FROM op o"
        " JOIN str n ON n.id = o.name_id JOIN run r ON r.id = o.run_id WHERE r.name = ?", (run,)),
        key=repr)
    want = sorted(((o["name"], o["d"], o["self"], o["ds"], o["dt"]) for o in ops), key=repr)
    if linked:
        got = sorted((g[:3] for g in got), key=repr)
        want = sorted((w[:3] for w in want), key=repr)
    bad = [] if got == want else ["%d ops stored, %d computed; first difference %r" % (
        len(got), len(want), next((p for p in zip(got, want) if p[0] != p[1]), None))]
    neg = sum(1 for g in got if g[2] < 0)
    print(("ok " if not bad else "MISMATCH ") + run, len(want), "ops",
          "(self)," if linked else "(self, device),", "negative self: %d" % neg, "; ".join(bad))
PY
# The ops held in memory until their file ends (ops_held.c: the default,
# checked above) or released into the op batch as they close: from the
# first op (PROFDB_OPS_HELD_BYTES=1) and part way (20 000 bytes: 156 ops
# held, then the budget is spent in all but the two smallest of these
# files; resnet50_num_workers_0's ops are out of start order, nccl_data's
# rank is fixed up after its events).  Every op row identical but for its
# id, every kernel row identical.
for f in \
  HolisticTraceAnalysis/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
  HolisticTraceAnalysis/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz \
  HolisticTraceAnalysis/tests/data/distributed_info_unavailable/distributed_info_not_found.json.gz \
  HolisticTraceAnalysis/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz \
  HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz \
  HolisticTraceAnalysis/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
  kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
do
  $PROFDB ingest -q --db h.db --run "$f" "$C/$f" || echo "ingest failed: $f"
  PROFDB_OPS_HELD_BYTES=1 $PROFDB ingest -q --db r.db --run "$f" "$C/$f" || echo "ingest failed: $f"
  PROFDB_OPS_HELD_BYTES=20000 $PROFDB ingest -q --db m.db --run "$f" "$C/$f" || echo "ingest failed: $f"
done
# op rows without their ids: held to the file's end, a file's ops take ids
# in (rank, thread, start) order, released as they close in closing order
for d in h r m; do
  sqlite3 $d.db "SELECT * FROM op" | cut -d'|' -f2- | LC_ALL=C sort >$d.ops
  sqlite3 $d.db "SELECT * FROM kernel ORDER BY id" >$d.kernels
done
echo "held ops with device time: $(sqlite3 h.db 'SELECT count(*) FROM op WHERE device_total_ns > 0')"
for d in r m; do
  for t in ops kernels; do
    if cmp -s h.$t $d.$t; then echo "$t held = $d: $(wc -l <h.$t) rows"; else echo "$t held != $d"; fi
  done
done
