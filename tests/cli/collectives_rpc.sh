# Collective args taken from record_param_comms host ops (doc/analyses.md
# "collectives"): the HTA nccl_data trace with its NCCL kernels' own args
# removed, so only the ops that launched them have "Collective name", "In/Out
# msg nelems", "dtype", "Group size", "Process Group Name/Description".  Three
# all_reduce kernels keep args of their own, with dtype BFloat16 where their
# op says Float: a kernel's own args win (all_reduce dtype becomes "mixed").
# The script below shares no code with profdb: it links each kernel to its op
# through its launch (kernel correlation -> the cudaLaunchKernel* call of
# that correlation -> the record_param_comms op on the call's thread whose
# span holds the call's start), then computes per collective, process group
# and rank the calls, bytes (max(in, out) nelems x dtype size), algbw (bytes /
# summed ns) and busbw (all_reduce x 2(n-1)/n, broadcast x 1) and compares
# them with profdb collectives --format csv.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
python3 - "$H/nccl_parser_config/nccl_data.json.gz" cut.json <<'PY' || exit 1
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
keys = ["Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype", "In split size",
        "Out split size", "Process Group Name", "Process Group Description", "Process Group Ranks"]
kept = 0
for e in d["traceEvents"]:
    if e.get("cat") == "kernel" and "Collective name" in e.get("args", {}):
        if e["args"]["Collective name"] == "allreduce" and kept < 3:
            e["args"]["dtype"] = "BFloat16"
            kept += 1
        else:
            for k in keys:
                e["args"].pop(k, None)
json.dump(d, open(sys.argv[2], "w"))
PY
$PROFDB ingest -q --db r.db --run rpc cut.json || exit 1
$PROFDB collectives --db r.db --format csv --unit ns >r.csv || exit 1
python3 - cut.json r.csv <<'PY'
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
size = {"Float": 4, "BFloat16": 2, "Half": 2, "Long": 8, "Int": 4, "Byte": 1, "Char": 1, "Double": 8}
ops = [e for e in ev if e.get("name") == "record_param_comms" and e.get("ph") == "X"]
calls = {e["args"]["correlation"]: e for e in ev
         if e.get("cat") == "cuda_runtime" and e["name"].startswith("cudaLaunchKernel")}
def op_of(k):
    c = calls.get(k["args"].get("correlation"))
    if c is None:
        return None
    hold = [o for o in ops if o["tid"] == c["tid"] and o["ts"] <= c["ts"] < o["ts"] + o["dur"]]
    return min(hold, key=lambda o: o["dur"]) if hold else None
def kind(name):
    n = name.lower()
    for pat, k in (("allreduce", "all_reduce"), ("broadcast", "broadcast")):
        if pat in n:
            return k
    return "other"
rows = {}
for k in ev:
    if k.get("cat") != "kernel" or not k["name"].startswith("nccl"):
        continue
    a = k["args"] if "Collective name" in k["args"] else (op_of(k) or {}).get("args", {})
    pg = "%s (%s)" % (a["Process Group Name"], a["Process Group Description"])
    r = rows.setdefault((kind(k["name"]), pg), {"calls": 0, "ns": 0, "bytes": 0, "dtypes": set(), "n": a["Group size"]})
    dur_ns = round(k["dur"] * 1000)
    r["calls"] += 1
    r["ns"] += dur_ns
    r["bytes"] += max(a["In msg nelems"], a["Out msg nelems"]) * size[a["dtype"]]
    r["dtypes"].add(a["dtype"])
got = {(x["collective"], x["process_group"]): x for x in csv.DictReader(open(sys.argv[2]))}
bad = 0
for key, r in sorted(rows.items()):
    n = r["n"]
    factor = 2 * (n - 1) / n if key[0] == "all_reduce" else 1
    algbw = r["bytes"] / r["ns"]
    dtype = r["dtypes"].pop() if len(r["dtypes"]) == 1 else "mixed"
    g = got.get(key)
    want = (r["calls"], r["ns"], n, dtype, r["bytes"])
    have = g and (int(g["calls"]), int(float(g["total_ns"])), int(g["group_size"]), g["dtype"], int(g["bytes"]))
    ok = g and have == want and abs(float(g["algbw_gbps"]) - algbw) < 1e-9 * algbw \
        and abs(float(g["busbw_gbps"]) - algbw * factor) < 1e-9 * algbw
    print("%s %s: calls %d, bytes %d, dtype %s, algbw %.6f, busbw %.6f GB/s: %s"
          % (key[0], key[1], r["calls"], r["bytes"], dtype, algbw, algbw * factor, "ok" if ok else "DIFFERS %r" % (g,)))
    bad += not ok
bad += len(got) != len(rows)
sys.exit(bad)
PY
# The link's limits, by hand on a tiny trace: the all_reduce kernel takes
# its op's args (1000 Float elements = 4000 bytes in 4 us: algbw 1 GB/s,
# busbw 1 x 2(4-1)/4 = 1.5); the all_gather kernel's External id equals its
# correlation id (a 2022-2023 trace's, naming no op): no args; the
# broadcast kernel starts (150) before the op of its id (200): no args; the
# reduce_scatter kernel comes before its op in the file: no args.
cat >tiny.json <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 10, "dur": 50, "args": {"External id": 5, "Collective name": "allreduce", "In msg nelems": 1000, "Out msg nelems": 1000, "dtype": "Float", "Group size": 4, "Process Group Name": "0", "Process Group Description": "default_pg"}},
{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 100, "dur": 10, "args": {"External id": 7, "Collective name": "allgather", "In msg nelems": 10, "Out msg nelems": 40, "dtype": "BFloat16", "Group size": 4, "Process Group Name": "1"}},
{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 200, "dur": 10, "args": {"External id": 8, "Collective name": "broadcast", "In msg nelems": 10, "Out msg nelems": 10, "dtype": "Float", "Group size": 2, "Process Group Name": "2"}},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL", "pid": 0, "tid": 7, "ts": 320, "dur": 3, "args": {"External id": 9, "correlation": 12}},
{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 300, "dur": 10, "args": {"External id": 9, "Collective name": "reduce_scatter", "In msg nelems": 40, "Out msg nelems": 10, "dtype": "Float", "Group size": 4, "Process Group Name": "3"}},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 7, "ts": 20, "dur": 4, "args": {"External id": 5, "correlation": 9}},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL", "pid": 0, "tid": 7, "ts": 120, "dur": 2, "args": {"External id": 7, "correlation": 7}},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Broadcast_RING_LL", "pid": 0, "tid": 7, "ts": 150, "dur": 1, "args": {"External id": 8, "correlation": 11}}
]}
JSON
$PROFDB ingest -q --db t.db --run t tiny.json || exit 1
$PROFDB collectives --db t.db --format csv
