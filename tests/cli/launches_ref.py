#!/usr/bin/env python3
"""launches_ref.py - an independent reference for `profdb launches` over raw Kineto files.

usage: launches_ref.py PATH[,PATH...] NAME.csv STREAM.csv STEP.csv [NOTES.txt]

Reads the trace JSON with the standard library only (exact decimals), written
from doc/analyses.md "launches", not from profdb's code, and compares every column
of `profdb launches --by name|stream|step --format csv --unit ns`:

  runtime call   X event of cat cuda_runtime / cuda_driver / Runtime /
                 mtia_runtime with args.correlation
  its kind       by its name less trailing _vN / _ptsz / _ptds / _spt:
                 graph  cudaGraphLaunch cuGraphLaunch hipGraphLaunch;
                 async  the kernel launch calls listed below, runFunction*
                        (MTIA), and cuda/cu/hip Memcpy/Memset* and MTIA
                        "enqueueCommand memcpy/memset*" ending in Async;
                 blocking  those copy / set names not ending in Async;
                 other  the rest: not a launch, its activities left out
  call           the device activities (kernel / gpu_memcpy / gpu_memset /
                 mtia_ccp_events, 2021 Kernel / Memcpy / Memset) with its
                 correlation id; its first activity = the earliest start
  by name        async calls grouped by the first activity's name, plus one
                 (all) row of them per run; graph and blocking calls grouped by
                 the call's name.  calls; per_call = activities / calls;
                 launch_* over the calls' durations (once a call);
                 start_delay = first start - call start (median, p90, p99,
                 max, statistics.quantiles inclusive); end_delay = max(0,
                 first start - call end) (median, p90, max); outliers =
                 async start delays above p75 + 3 (p75 - p25) of the (all)
                 start delays, empty on graph / blocking rows
  stream         args.stream, else the tid ("stream 7" of 2021 traces: 7)
  by stream/step every activity of an async call: queue and step sweeps as
                 analyses_ref.py checks them (its own code, copied here so
                 that the two scripts stand alone)
  notes          N of M launch calls with a negative start delay; graph /
                 blocking calls and their activities (NOTES.txt: stderr)
"""
import csv
import gzip
import json
import re
import statistics
import sys
from decimal import Decimal

DEVICE_CATS = ("kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "mtia_ccp_events")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime")
GRAPH = {"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"}
KERNEL = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel",
          "cudaLaunchCooperativeKernelMultiDevice", "cuLaunchKernel", "cuLaunchKernelEx",
          "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernelMultiDevice", "cuLaunchGrid",
          "cuLaunchGridAsync", "hipLaunchKernel", "hipExtLaunchKernel", "hipModuleLaunchKernel",
          "hipExtModuleLaunchKernel", "hipHccModuleLaunchKernel", "hipLaunchCooperativeKernel",
          "hipLaunchCooperativeKernelMultiDevice", "hipExtLaunchMultiKernelMultiDevice",
          "hipModuleLaunchCooperativeKernel"}
COPY = ("cudaMemcpy", "cudaMemset", "cuMemcpy", "cuMemset", "hipMemcpy", "hipMemset",
        "enqueueCommand memcpy", "enqueueCommand memset")


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def ns(x):
    return int(Decimal(x) * 1000)


def kind(name):
    base = re.sub(r"(_v[0-9]+|_ptsz|_ptds|_spt)+$", "", name)
    if base in GRAPH:
        return "graph"
    if base in KERNEL or name.startswith("runFunction"):
        return "async"
    if base.startswith(COPY):
        return "async" if base.endswith("Async") else "blocking"
    return None


def load(path):
    """calls [(rank, kind, name, start, dur, [(stream, name, start, end)], step)], syncs {(rank, step): ns}."""
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    rank = int(doc.get("distributedInfo", {}).get("rank", 0)) if isinstance(doc, dict) else 0
    spans, calls, syncs, acts = [], {}, [], {}
    for e in events:
        if e.get("ph") != "X":
            continue
        a = e.get("args", {})
        if e.get("cat") in ("user_annotation", "Operator", "cpu_op") and \
                str(e.get("name", "")).startswith("ProfilerStep#"):
            spans.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1])))
        elif e.get("cat") in RUNTIME_CATS and "correlation" in a:
            if "Synchronize" in e["name"]:
                syncs.append((ns(e["ts"]), ns(e["dur"])))
            calls.setdefault(a["correlation"], []).append(e)
        elif e.get("cat") in DEVICE_CATS and "correlation" in a:
            s = ns(e["ts"])
            st = a.get("stream", e.get("tid"))
            st = int(st.split()[-1]) if isinstance(st, str) else st
            acts.setdefault(a["correlation"], []).append((st, e["name"], s, s + ns(e["dur"])))
    out = []
    for corr, es in calls.items():
        es = [e for e in es if kind(e["name"])]
        if not es or corr not in acts:
            continue
        if len(es) > 1:
            fail("correlation %s has %d launch calls" % (corr, len(es)))
        e = es[0]
        s = ns(e["ts"])
        step = next((st for a, b, st in spans if a <= s < b), None)
        out.append((rank, kind(e["name"]), e["name"], s, ns(e["dur"]), acts[corr], step))
    sync = {(rank, st): sum(d for t, d in syncs if a <= t < b) for a, b, st in spans}
    return out, sync


def quant(v, p):
    v = sorted(v)
    if len(v) == 1:
        return Decimal(v[0])
    return statistics.quantiles([Decimal(x) for x in v], n=100, method="inclusive")[p - 1]


def close(cell, want, what):
    if want is None:
        if cell != "":
            fail("%s: profdb %s, reference empty" % (what, cell))
    elif cell == "" or abs(Decimal(cell) - Decimal(want)) > Decimal("0.001") + abs(Decimal(want)) * Decimal("1e-9"):
        fail("%s: profdb %s, reference %s" % (what, cell, want))


def first(c):
    return min(c[5], key=lambda a: a[2])


def start_delay(c):
    return first(c)[2] - c[3]


def end_delay(c):
    return max(0, first(c)[2] - c[3] - c[4])


def check_names(calls, out_csv):
    asyncs = [c for c in calls if c[1] == "async"]
    d_all = [start_delay(c) for c in asyncs]
    fence = None
    if d_all:
        q1, q3 = quant(d_all, 25), quant(d_all, 75)
        fence = q3 + 3 * (q3 - q1)
    groups = {("async", "(all)"): asyncs} if asyncs else {}
    for c in calls:
        key = (c[1], first(c)[1] if c[1] == "async" else c[2])
        groups.setdefault(key, []).append(c)
    rows = {(r["launch"], r["name"]): r for r in csv.DictReader(open(out_csv, newline=""))}
    if set(rows) != set(groups):
        fail("launch rows differ: profdb %d, reference %d: %s" % (
            len(rows), len(groups), sorted(set(rows) ^ set(groups))[:4]))
    for key, g in groups.items():
        d = [start_delay(c) for c in g]
        e = [end_delay(c) for c in g]
        ld = [c[4] for c in g]
        want = {"calls": len(g), "per_call": Decimal(sum(len(c[5]) for c in g)) / len(g),
                "launch_total_ns": sum(ld), "launch_avg_ns": Decimal(sum(ld)) / len(ld), "launch_max_ns": max(ld),
                "start_delay_median_ns": quant(d, 50), "start_delay_p90_ns": quant(d, 90),
                "start_delay_p99_ns": quant(d, 99), "start_delay_max_ns": max(d),
                "end_delay_median_ns": quant(e, 50), "end_delay_p90_ns": quant(e, 90), "end_delay_max_ns": max(e),
                "outliers": sum(1 for x in d if x > fence) if key[0] == "async" else None}
        for col, v in want.items():
            close(rows[key][col], v, "%s %s %s" % (key[0], key[1][:40], col))
    print("ok launches --by name: %d async names, %d graph / blocking rows, %d calls, every column" % (
        sum(1 for k in groups if k[0] == "async") - (1 if asyncs else 0),
        sum(1 for k in groups if k[0] != "async"), len(calls)))


def queue_figures(g):
    ev = sorted([(k[4], 1) for k in g] + [(k[7], -1) for k in g], key=lambda x: (x[0], x[1]))
    q = qmax = area = some = 0
    for i, (t, dlt) in enumerate(ev):
        if i:
            dt = t - ev[i - 1][0]
            area += q * dt
            some += dt if q > 0 else 0
        q += dlt
        qmax = max(qmax, q)
    w = ev[-1][0] - ev[0][0]
    return qmax, (Decimal(area) / w if w else None), (Decimal(100 * some) / w if w else None)


def check_streams(acts, out_csv):
    groups = {}
    for k in acts:
        groups.setdefault((k[0], k[2]), []).append(k)
    rows = {(int(r["rank"]), int(r["stream"])): r for r in csv.DictReader(open(out_csv, newline=""))}
    if set(rows) != set(groups):
        fail("streams: profdb %s, reference %s" % (sorted(rows), sorted(groups)))
    for key, g in groups.items():
        qmax, mean, pct = queue_figures(g)
        d = [k[6] - k[4] for k in g]
        row = rows[key]
        close(row["kernels"], len(g), "%s kernels" % (key,))
        close(row["queue_max"], qmax, "%s queue_max" % (key,))
        for col, v in (("queue_mean", mean), ("queued_pct", pct)):
            if v is not None and abs(float(row[col]) - float(v)) > 1e-9 * max(1.0, abs(float(v))):
                fail("%s %s: profdb %s, reference %s" % (key, col, row[col], v))
        close(row["start_delay_median_ns"], quant(d, 50), "%s start_delay_median" % (key,))
        close(row["start_delay_max_ns"], max(d), "%s start_delay_max" % (key,))
    print("ok launches --by stream: %d streams, every column" % len(groups))


def covered(segments, lo, hi):
    """Length of [lo, hi) covered by the union of segments (merged after sorting; an
    activity that starts before its launch has no launched-not-started segment)."""
    t, cur_s, cur_e = 0, None, None
    for s, e in sorted((max(s, lo), min(e, hi)) for s, e in segments if s < e and s < hi and e > lo):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                t += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return t + (cur_e - cur_s if cur_e is not None else 0)


def check_steps(acts, sync, out_csv):
    groups = {}
    for k in acts:
        groups.setdefault((k[0], k[1]), []).append(k)
    rows = {(int(r["rank"]), None if r["step"] == "" else int(r["step"])): r
            for r in csv.DictReader(open(out_csv, newline=""))}
    if set(rows) != set(groups):
        fail("steps: profdb %s, reference %s" % (sorted(rows, key=str), sorted(groups, key=str)))
    for key, g in groups.items():
        lo, hi = min(k[6] for k in g), max(k[7] for k in g)
        rank_acts = [k for k in acts if k[0] == key[0]]
        hw = (hi - lo) - covered([(k[4], k[7]) for k in rank_acts], lo, hi)
        qd = covered([(k[4], k[6]) for k in rank_acts], lo, hi)
        row = rows[key]
        for col, v in (("span_ns", hi - lo), ("kernels", len(g)), ("host_wait_ns", hw), ("queued_ns", qd),
                       ("host_sync_ns", sync.get(key, 0))):
            close(row[col], v, "%s %s" % (key, col))
        if row["bound"] != ("host" if hw > qd else "device"):
            fail("%s bound: profdb %s" % (key, row["bound"]))
    print("ok launches --by step: %d steps, every column" % len(groups))


def check_notes(calls, notes_path):
    text = open(notes_path).read()
    neg = sum(1 for c in calls if start_delay(c) < 0)
    want = []
    if neg:
        want.append("%d of %d launch calls start on the device before their launch call starts" % (neg, len(calls)))
    for k, what in (("graph", "graph launch calls launched"), ("blocking", "blocking copy calls")):
        g = [c for c in calls if c[1] == k]
        if g:
            want.append("%d %s" % (len(g), what))
            want.append("launched %d device activities" % sum(len(c[5]) for c in g))
    for w in want:
        if w not in text:
            fail("note missing: %r" % w)
    if not neg and "negative start delay" in text:
        fail("a negative delay note without negative delays")
    print("ok launches notes: %d negative, %d graph, %d blocking calls" % (
        neg, sum(1 for c in calls if c[1] == "graph"), sum(1 for c in calls if c[1] == "blocking")))


def main():
    paths, name_csv, stream_csv, step_csv = sys.argv[1:5]
    calls, sync = [], {}
    for p in paths.split(","):
        c, y = load(p)
        calls += c
        sync.update(y)
    check_names(calls, name_csv)
    acts = [(c[0], c[6], a[0], a[1], c[3], c[4], a[2], a[3]) for c in calls if c[1] == "async" for a in c[5]]
    check_streams(acts, stream_csv)
    check_steps(acts, sync, step_csv)
    if len(sys.argv) > 5:
        check_notes(calls, sys.argv[5])


if __name__ == "__main__":
    main()
