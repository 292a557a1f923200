#!/usr/bin/env python3
"""analyses_ref.py - an independent reference for profdb's analyses over raw files.

usage: analyses_ref.py breakdown kineto|ascend PATH OUT.csv [rank]
       analyses_ref.py bandwidth kineto PATH OUT.csv [rank]
       analyses_ref.py idle kineto PATH STREAMS.csv GAPS.csv
       analyses_ref.py ranks kineto|ascend PATH OUT.csv [rank]
       analyses_ref.py collectives kineto|ascend PATH RANK.csv STEP.csv
       analyses_ref.py flops kineto PATH OUT.csv

Reads the raw profiler files with the Python standard library only (json with
exact decimals, csv), written from FORMATS.md and doc/analyses.md "Analyses", not from
profdb's code, and compares every column of `profdb breakdown --format csv
--unit ns` (OUT.csv; with "rank": `--by rank`) with its own computation:

  device activities  Kineto X events of cat kernel / gpu_memcpy / gpu_memset (and
                     the 2021 names Kernel / Memcpy / Memset, MTIA mtia_ccp_events,
                     of which dma_request is memory); Ascend
                     kernel_details.csv rows, times decimal us -> exact ns
  class              communication: Ascend Accelerator Core HCCL or COMMUNICATION, or a
                     Type (Name when Type is N/A) starting hcom_; Kineto kernels
                     named ncclKernel* / ncclDevKernel* / rccl*; memory: memcpy
                     and memset; compute: every other
  step               Kineto: the ProfilerStep#N host span holding the launching
                     runtime call (same correlation); Ascend: the Step Id column
  rank               Kineto distributedInfo.rank (0 without); Ascend the N of
                     profiler_info_N.json (0 without)
  figures            unions of each class over all streams (sort + sweep here),
                     intersections by a two-pointer walk; span = last end - first
                     start; idle = span - busy; percentages of span (rel 1e-9)

launches: launches_ref.py (the launch rules: which calls launch, graphs).

bandwidth: gpu_memcpy / gpu_memset (Memcpy / Memset) events and MTIA dma_request;
direction from the name (HtoD / HostToDevice, DtoH / DeviceToHost, DtoD /
DeviceToDevice, PtoP / PeerToPeer, else other; every memset "memset"; MTIA from
args "direction"); bytes from args "bytes" (MTIA "size"); a transfer's time is
bytes / its args "memory bandwidth (GB/s)" where present, else its dur;
gbps = sum of bytes / sum of those times of the events with bytes; max_gbps the
largest bytes / time of one event (rel 1e-9).

idle: per rank and stream (the device event's tid), the stream's activities in
start order; a gap is time between the end of everything so far and the next
start; host_wait = gap time before the next activity's launch call start;
other_stream = the rest of the gap covered by another stream of the rank;
other = the remainder.  The gap listing is checked for its top rows (all
columns but host_op, which the hand-made case checks).

ranks: per (step) group of ranks, compute / communication / exposed
communication as for breakdown;
compute_median = statistics.median; compute_z = 0.6745 (x - median) / MAD, or
(x - median) / (1.253314 mean absolute deviation) when MAD is 0, or 0; empty
below 3 ranks; wait = communication - the least communication of the step's
ranks with communication (empty without); straggler: among >= 2 ranks with
communication, yes for the one with the least (lowest rank on a tie) when
median - least >= 10 % of their median, else no (empty for a rank without
communication or fewer than 2 such ranks); top_kernel = the
name with the largest (its total on the rank - its median total over the
step's ranks, 0 where a rank did not run it), A..Z on a tie, empty when no
excess is positive.

collectives: communication activities (the class above) named by the first
of these found in the lowercased name: reducescatter / reduce_scatter,
allreduce / all_reduce, allgather / all_gather, alltoall / all2all /
all_to_all, broadcast, sendrecv, send, recv / receive, reduce, barrier, else
other; per rank calls, total, mean, median, max; per step the ranks' totals:
min, median, max, skew = max - min, waited_on_rank = the least total (lowest
rank on a tie) when median - least >= 10 % of the median (2 ranks or more),
else empty.

flops: cpu_op events named aten::mm / addmm / bmm / baddbmm / linear / matmul
with "Input Dims", grouped by (name, dims, types); FLOPs and elements moved by
the README formulas (written again here), bytes at the first input's dtype
size; device time and TFLOP/s are checked for mm / addmm / bmm / baddbmm (no
children): the sum of durations of device activities with the op's External
id.

For Ascend folders the script also prints, per rank and step, the figures of
step_trace_time.csv against ours (Computing, Communication, Overlapped, Free):
those differ by the rounding of the printed inputs only (checked: within
0.0005 us per kernel, twice, as verify allows).
Prints "ok" lines; exits 1 at the first mismatch."""
import csv
import glob
import gzip
import json
import os
import statistics
import sys
from decimal import Decimal


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


def ns(v):
    return int(Decimal(str(v).strip()) * 1000)


DEVICE_CATS = {"kernel": "k", "Kernel": "k", "gpu_memcpy": "y", "Memcpy": "y",
               "gpu_memset": "y", "Memset": "y", "mtia_ccp_events": "k"}
RUNTIME_CATS = ("cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime")


def mtia_dma(e):
    """An MTIA DMA transfer: memory, as HTA counts it (doc/analyses.md "breakdown")."""
    return e.get("cat") == "mtia_ccp_events" and e.get("name") == "dma_request"


def kineto_comm(name):
    return name.startswith(("ncclKernel", "ncclDevKernel", "rccl"))


def load_kineto(path):
    """[(rank, step, class, start, end)] of one trace file."""
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    rank = int(doc.get("distributedInfo", {}).get("rank", 0)) if isinstance(doc, dict) else 0
    spans, launch, out = [], {}, []
    for e in events:
        if e.get("ph") != "X":
            continue
        if e.get("cat") in ("user_annotation", "Operator", "cpu_op") and \
                str(e.get("name", "")).startswith("ProfilerStep#"):
            spans.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1])))
        elif e.get("cat") in RUNTIME_CATS and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = ns(e["ts"])
    for e in events:
        c = DEVICE_CATS.get(e.get("cat"))
        if e.get("ph") != "X" or c is None:
            continue
        if mtia_dma(e):
            c = "y"
        elif c == "k" and kineto_comm(e["name"]):
            c = "m"
        elif c == "k":
            c = "c"
        t = launch.get(e.get("args", {}).get("correlation"))
        step = next((s for a, b, s in spans if t is not None and a <= t < b), None)
        s = ns(e["ts"])
        out.append((rank, step, c, s, s + ns(e["dur"]), e["name"], e.get("args", {})))
    return out


def ascend_comm(row):
    core = row.get("Accelerator Core", "").strip()
    if core and core != "N/A":
        return core in ("HCCL", "COMMUNICATION")
    t = row.get("Type", "N/A").strip()
    return (t if t != "N/A" else row["Name"]).startswith("hcom_")


def load_ascend(path):
    out = []
    for kd in sorted(glob.glob(os.path.join(path, "**", "kernel_details.csv"), recursive=True)):
        top = os.path.dirname(os.path.dirname(kd))
        info = glob.glob(os.path.join(top, "profiler_info_*.json"))
        rank = int(os.path.basename(info[0])[len("profiler_info_"):-len(".json")]) if info else 0
        # communication.json keys its ops "<op name>@<group>": the group
        groups = {}
        cj = os.path.join(os.path.dirname(kd), "communication.json")
        for scopes in (json.load(open(cj)).values() if os.path.exists(cj) else ()):
            for ops in scopes.values():
                groups.update(k.rsplit("@", 1) for k in ops if "@" in k)
        with open(kd, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                s = ns(row["Start Time(us)"])
                step = row.get("Step Id", "").strip()
                m = ascend_comm(row)
                a = {"Process Group Name": groups[row["Name"]]} if m and row["Name"] in groups else {}
                out.append((rank, int(step) if step else None, "m" if m else "c",
                            s, s + ns(row["Duration(us)"]), row["Name"], a))
    return out


def union(iv):
    out = []
    for s, e in sorted(iv):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(u):
    return sum(e - s for s, e in u)


def inter(a, b):
    i = j = t = 0
    while i < len(a) and j < len(b):
        t += max(0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return t


def figures(acts):
    cls = {k: union([(a[3], a[4]) for a in acts if a[2] == k]) for k in "cmy"}
    C, M, Y = cls["c"], cls["m"], cls["y"]
    span = max(a[4] for a in acts) - min(a[3] for a in acts)
    cm = union([tuple(x) for x in C + M])
    exp_mem = length(Y) - inter(Y, cm)
    busy = length(cm) + exp_mem
    f = {"span": span, "busy": busy, "compute": length(C), "communication": length(M),
         "memory": length(Y), "compute_comm_overlap": inter(C, M),
         "compute_memory_overlap": inter(C, Y), "comm_memory_overlap": inter(M, Y),
         "exposed_communication": length(M) - inter(C, M), "exposed_memory": exp_mem,
         "idle": span - busy, "kernels": len(acts)}
    for k in ("compute", "communication", "memory", "exposed_communication", "idle"):
        f[k + "_pct"] = 100 * f[k] / span if span else None
    f["comm_overlap_pct"] = 100 * f["compute_comm_overlap"] / f["communication"] if f["communication"] else None
    return f


def check_breakdown(acts, out_csv, by_rank):
    groups = {}
    for a in acts:
        groups.setdefault((a[0], None if by_rank else a[1]), []).append(a)
    rows = list(csv.DictReader(open(out_csv, newline="")))
    got = {}
    for r in rows:
        step = None if by_rank or r["step"] == "" else int(r["step"])
        got[(int(r["rank"]), step)] = r
    if set(got) != set(groups):
        fail("groups: profdb %s, reference %s" % (sorted(got, key=str), sorted(groups, key=str)))
    for key in sorted(groups, key=lambda k: (k[0], -1 if k[1] is None else k[1])):
        want, row = figures(groups[key]), got[key]
        for col, v in want.items():
            name = col if col.endswith("pct") or col == "kernels" else col + "_ns"
            cell = row[name]
            if v is None:
                if cell != "":
                    fail("%s %s: profdb %s, reference empty" % (key, name, cell))
            elif col.endswith("pct"):
                if abs(float(cell) - v) > 1e-9 * max(1.0, abs(v)):
                    fail("%s %s: profdb %s, reference %r" % (key, name, cell, v))
            elif Decimal(cell) != v:
                fail("%s %s: profdb %s, reference %d" % (key, name, cell, v))
    print("ok breakdown%s: %d groups, %d device activities, every column" % (
        " --by rank" if by_rank else "", len(groups), len(acts)))
    return groups


def check_step_trace(path, groups):
    """Our figures against step_trace_time.csv, within verify's rounding allowance."""
    for st in sorted(glob.glob(os.path.join(path, "**", "step_trace_time.csv"), recursive=True)):
        top = os.path.dirname(os.path.dirname(st))
        info = glob.glob(os.path.join(top, "profiler_info_*.json"))
        rank = int(os.path.basename(info[0])[len("profiler_info_"):-len(".json")]) if info else 0
        for row in csv.DictReader(open(st, newline="", encoding="utf-8")):
            step = int(row["Step"]) if row["Step"].strip() else None
            acts = groups[(rank, step)]
            f = figures(acts)
            tol = 2 * 0.0005 * (len(acts) + 1)
            for col, ours in (("Computing", f["compute"]), ("Communication", f["communication"]),
                              ("Overlapped", f["compute_comm_overlap"]), ("Free", f["idle"])):
                want = float(row[col])
                if abs(ours / 1000 - want) > max(1e-4 * abs(want), tol):
                    fail("rank %d step %s %s: step_trace_time %s, ours %.3f" % (rank, step, col, want, ours / 1000))
            print("ok step_trace_time rank %d step %s: Computing, Communication, Overlapped, Free agree" % (rank, step))


def load_launches(path, keep_unlinked=False):
    """[(rank, step, stream, name, launch start, launch dur, start, end)], sync calls."""
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    rank = int(doc.get("distributedInfo", {}).get("rank", 0)) if isinstance(doc, dict) else 0
    spans, calls, syncs, out = [], {}, [], []
    for e in events:
        if e.get("ph") != "X":
            continue
        if e.get("cat") in ("user_annotation", "Operator", "cpu_op") and \
                str(e.get("name", "")).startswith("ProfilerStep#"):
            spans.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1])))
        elif e.get("cat") in RUNTIME_CATS and "correlation" in e.get("args", {}):
            calls[e["args"]["correlation"]] = (ns(e["ts"]), ns(e["dur"]))
            if "Synchronize" in e["name"]:
                syncs.append((ns(e["ts"]), ns(e["dur"])))
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in DEVICE_CATS:
            continue
        c = calls.get(e.get("args", {}).get("correlation"))
        if c is None and not keep_unlinked:
            continue
        c = c or (None, None)
        step = next((s for a, b, s in spans if c[0] is not None and a <= c[0] < b), None)
        s = ns(e["ts"])
        out.append((rank, step, e["tid"], e["name"], c[0], c[1], s, s + ns(e["dur"])))
    sync = {}
    for a, b, st in spans:
        sync[(rank, st)] = sum(d for t, d in syncs if a <= t < b)
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
    elif abs(Decimal(cell) - Decimal(want)) > Decimal("0.001") + abs(Decimal(want)) * Decimal("1e-12"):
        fail("%s: profdb %s, reference %s" % (what, cell, want))


def direction(cat, name, args):
    if cat in ("gpu_memset", "Memset"):
        return "memset"
    if cat == "mtia_ccp_events":
        return {"HOST_TO_DEVICE": "HtoD", "DEVICE_TO_HOST": "DtoH"}.get(args.get("direction"), "other")
    for d, alt in (("HtoD", "HostToDevice"), ("DtoH", "DeviceToHost"), ("DtoD", "DeviceToDevice"),
                   ("PtoP", "PeerToPeer")):
        if d in name or alt in name:
            return d
    return "other"


def check_bandwidth(path, out_csv, by_rank):
    groups = {}
    for p in path.split(","):
        opener = gzip.open if open(p, "rb").read(2) == b"\x1f\x8b" else open
        with opener(p, "rt", encoding="utf-8") as f:
            doc = json.load(f, parse_float=Decimal)
        events = doc["traceEvents"] if isinstance(doc, dict) else doc
        rank = int(doc.get("distributedInfo", {}).get("rank", 0)) if isinstance(doc, dict) else 0
        spans = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1])) for e in events
                 if e.get("ph") == "X" and e.get("cat") in ("user_annotation", "Operator", "cpu_op")
                 and str(e.get("name", "")).startswith("ProfilerStep#")]
        calls = {e["args"]["correlation"]: ns(e["ts"]) for e in events if e.get("ph") == "X"
                 and e.get("cat") in RUNTIME_CATS and "correlation" in e.get("args", {})}
        for e in events:
            if e.get("ph") != "X" or (e.get("cat") not in ("gpu_memcpy", "Memcpy", "gpu_memset", "Memset")
                                      and not mtia_dma(e)):
                continue
            a = e.get("args", {})
            t = calls.get(a.get("correlation"))
            step = None if by_rank else next((s for a_, b_, s in spans if t is not None and a_ <= t < b_), None)
            b = a.get("bytes", a.get("size") if mtia_dma(e) else None)
            # the time at the transfer's own rate where the trace gives it
            own = a.get("memory bandwidth (GB/s)")
            d = ns(e["dur"])
            rate_ns = None if b is None else (Decimal(b) / own if own else d)
            groups.setdefault((rank, step, direction(e["cat"], e["name"], a)), []).append(
                (d, None if b is None else int(b), rate_ns))
    rows = {}
    for r in csv.DictReader(open(out_csv, newline="")):
        step = None if by_rank or r["step"] == "" else int(r["step"])
        rows[(int(r["rank"]), step, r["direction"])] = r
    if set(rows) != set(groups):
        fail("bandwidth groups: profdb %s, reference %s" % (sorted(rows, key=str), sorted(groups, key=str)))
    for key, g in groups.items():
        sized = [(t, b) for _, b, t in g if b is not None]
        sd = sum(t for t, _ in sized)
        want = {"transfers": len(g), "sized": len(sized), "bytes": sum(b for _, b in sized),
                "total_ns": sum(d for d, _, _ in g)}
        row = rows[key]
        for col, v in want.items():
            close(row[col], v, "%s %s" % (key, col))
        for col, v in (("gbps", float(sum(b for _, b in sized) / sd) if sd else None),
                       ("max_gbps", max((float(b / t) for t, b in sized if t), default=None))):
            if v is None:
                if row[col] != "":
                    fail("%s %s: profdb %s, reference empty" % (key, col, row[col]))
            elif abs(float(row[col]) - v) > 1e-9 * max(1.0, v):
                fail("%s %s: profdb %s, reference %r" % (key, col, row[col], v))
    print("ok bandwidth%s: %d groups, %d transfers, every column" % (
        " --by rank" if by_rank else "", len(groups), sum(len(g) for g in groups.values())))


def idle_gaps(acts):
    """{(rank, stream): (kernels, span, [(a, b, host, other_stream, next name)])}."""
    by = {}
    for k in acts:
        by.setdefault((k[0], k[2]), []).append(k)
    out = {}
    for (rank, stream), g in by.items():
        g.sort(key=lambda k: (k[6], k[7]))
        others = union([(k[6], k[7]) for k in acts if k[0] == rank and k[2] != stream])
        end, gaps = g[0][7], []
        for k in g[1:]:
            if k[6] > end:
                a, b = end, k[6]
                cut = min(b, k[4]) if k[4] is not None and k[4] > a else a
                gaps.append((a, b, cut - a, inter([[cut, b]], others), k[3]))
            end = max(end, k[7])
        out[(rank, stream)] = (len(g), max(k[7] for k in g) - g[0][6], gaps)
    return out


def check_idle(acts, streams_csv, gaps_csv):
    res = idle_gaps(acts)
    rows = {(int(r["rank"]), int(r["stream"])): r for r in csv.DictReader(open(streams_csv, newline=""))}
    if set(rows) != set(res):
        fail("idle streams: profdb %s, reference %s" % (sorted(rows), sorted(res)))
    for key, (n, span, gaps) in res.items():
        idle = sum(b - a for a, b, *_ in gaps)
        host = sum(g[2] for g in gaps)
        other_stream = sum(g[3] for g in gaps)
        row = rows[key]
        for col, v in (("kernels", n), ("span_ns", span), ("idle_ns", idle), ("host_wait_ns", host),
                       ("other_stream_ns", other_stream), ("other_ns", idle - host - other_stream)):
            close(row[col], v, "%s %s" % (key, col))
        if idle:
            close(row["host_wait_pct"], Decimal(100 * host) / idle, "%s host_wait_pct" % (key,))
    print("ok idle: %d streams, every column" % len(res))
    origin = {}
    for k in acts:
        origin[k[0]] = min(origin.get(k[0], k[6]), k[6])
    allg = sorted(((b - a, rank, stream, a, b, h, o, name) for (rank, stream), (_, _, gaps) in res.items()
                   for a, b, h, o, name in gaps), key=lambda g: (-g[0], g[1], g[2], g[3]))
    got = list(csv.DictReader(open(gaps_csv, newline="")))
    for i, row in enumerate(got):
        ln, rank, stream, a, b, h, o, name = allg[i]
        for col, v in (("rank", rank), ("stream", stream), ("at_ns", a - origin[rank]), ("gap_ns", ln),
                       ("host_wait_ns", h), ("other_stream_ns", o), ("other_ns", ln - h - o)):
            close(row[col], v, "gap %d %s" % (i, col))
        if row["next_kernel"] != name:
            fail("gap %d next_kernel: profdb %s, reference %s" % (i, row["next_kernel"], name))
    print("ok idle --gaps: the %d longest of %d gaps, every column but host_op" % (len(got), len(allg)))


def check_ranks(acts, out_csv, by_rank):
    groups = {}
    for a in acts:
        groups.setdefault((a[0], None if by_rank else a[1]), []).append(a)
    fig = {k: figures(v) for k, v in groups.items()}
    rows = {}
    for r in csv.DictReader(open(out_csv, newline="")):
        rows[(int(r["rank"]), None if by_rank or r["step"] == "" else int(r["step"]))] = r
    if set(rows) != set(fig):
        fail("ranks groups: profdb %s, reference %s" % (sorted(rows, key=str), sorted(fig, key=str)))
    steps = {}
    for (rank, step), f in fig.items():
        steps.setdefault(step, []).append((rank, f))
    stragglers = 0
    names = {}
    for a in acts:
        key = (a[0], None if by_rank else a[1])
        d = names.setdefault(key[1], {}).setdefault(a[5], {})
        d[key[0]] = d.get(key[0], 0) + a[4] - a[3]
    for step, members in steps.items():
        for rank, _ in members:
            ex = sorted(((Decimal(str(t.get(rank, 0))) - Decimal(str(statistics.median(
                [t.get(r, 0) for r, _ in members]))), n) for n, t in names[step].items()),
                key=lambda x: (-x[0], x[1]))
            row = rows[(rank, step)]
            want = ex[0] if ex and ex[0][0] > 0 else None
            if (row["top_kernel"] or None) != (want[1] if want else None):
                fail("%s top_kernel: profdb %s, reference %s" % ((rank, step), row["top_kernel"], want))
            close(row["top_excess_ns"], want[0] if want else None, "%s top_excess" % ((rank, step),))
        xs = [f["compute"] for _, f in members]
        med = statistics.median(xs)
        dev = [abs(x - med) for x in xs]
        mad, mean_ad = statistics.median(dev), sum(dev) / len(dev)
        # the straggler rule: the rank the others wait on (least communication,
        # lowest rank on a tie), flagged when median - least >= 10 % of the median
        comm = {rank: f["communication"] for rank, f in members if f["communication"] > 0}
        late = min(comm, key=lambda r: (comm[r], r)) if comm else None
        cmed = statistics.median(comm.values()) if comm else 0
        for rank, f in members:
            row = rows[(rank, step)]
            for col in ("compute", "communication", "exposed_communication"):
                close(row[col + "_ns"], f[col], "%s %s" % ((rank, step), col))
            close(row["wait_ns"], comm[rank] - comm[late] if rank in comm else None, "%s wait" % ((rank, step),))
            want = None
            if rank in comm and len(comm) >= 2:
                want = "yes" if rank == late and (cmed - comm[late]) * 100 >= 10 * cmed else "no"
            if (row["straggler"] or None) != want:
                fail("%s straggler: profdb %s, reference %s" % ((rank, step), row["straggler"], want))
            stragglers += want == "yes"
            close(row["compute_median_ns"], Decimal(str(med)), "%s compute_median" % ((rank, step),))
            if len(members) < 3:
                z = None
            else:
                x = f["compute"] - med
                z = 0.6745 * x / mad if mad else (x / (1.253314 * mean_ad) if mean_ad else 0.0)
            if z is None:
                if row["compute_z"] != "":
                    fail("%s: z %s with %d ranks" % ((rank, step), row["compute_z"], len(members)))
                continue
            if abs(float(row["compute_z"]) - z) > 1e-9 * max(1.0, abs(z)):
                fail("%s compute_z: profdb %s, reference %r" % ((rank, step), row["compute_z"], z))
    print("ok ranks%s: %d rows, %d stragglers, every column" % (" --by rank" if by_rank else "", len(fig), stragglers))


COLLECTIVES = [("reduce_scatter", ("reducescatter", "reduce_scatter")),
               ("all_reduce", ("allreduce", "all_reduce")), ("all_gather", ("allgather", "all_gather")),
               ("all_to_all", ("alltoall", "all2all", "all_to_all")), ("broadcast", ("broadcast",)),
               ("send_recv", ("sendrecv",)), ("send", ("send",)), ("recv", ("recv", "receive")),
               ("reduce", ("reduce",)), ("barrier", ("barrier",))]


def collective(name):
    n = name.lower()
    return next((c for c, keys in COLLECTIVES if any(k in n for k in keys)), "other")


# bytes per element of the c10 dtype names Kineto writes (c10/core/ScalarType.h)
DTYPE_BYTES = {"Byte": 1, "Char": 1, "Bool": 1, "Float8_e5m2": 1, "Float8_e4m3fn": 1, "Short": 2,
               "Half": 2, "BFloat16": 2, "Int": 4, "Float": 4, "Long": 8, "Double": 8}


def bus_factor(coll, n):
    """NCCL-tests busbw / algbw (doc/PERFORMANCE.md)."""
    if coll in ("broadcast", "reduce", "send", "recv", "send_recv"):
        return Decimal(1)
    if not n:
        return None
    if coll == "all_reduce":
        return Decimal(2 * (n - 1)) / n
    if coll in ("all_gather", "reduce_scatter", "all_to_all"):
        return Decimal(n - 1) / n
    return None


def check_collective_bw(key, calls, row):
    """calls: [(dur, args)] of one (collective, process group, rank)."""
    sized = [(d, max(int(a.get("In msg nelems", a.get("Out msg nelems"))),
                     int(a.get("Out msg nelems", a.get("In msg nelems")))) * DTYPE_BYTES[a["dtype"]], a)
             for d, a in calls if "dtype" in a and a["dtype"] in DTYPE_BYTES
             and ("In msg nelems" in a or "Out msg nelems" in a)]
    dtypes = {a["dtype"] for d, a in calls if "dtype" in a}
    sizes = {a["Group size"] for d, a in calls if "Group size" in a}
    want = {"group_size": max(sizes) if sizes else "",
            "dtype": "" if not dtypes else dtypes.pop() if len(dtypes) == 1 else "mixed"}
    for col, v in want.items():
        if row[col] != str(v):
            fail("%s %s: profdb %r, reference %r" % (key, col, row[col], v))
    if not sized:
        for col in ("bytes", "avg_msg_bytes", "algbw_gbps", "busbw_gbps"):
            if row[col] != "":
                fail("%s %s: profdb %r, reference none" % (key, col, row[col]))
        return 0
    total_b, total_t = sum(b for d, b, a in sized), sum(d for d, b, a in sized)
    f = bus_factor(key[0], int(want["group_size"]) if want["group_size"] != "" else None)
    close(row["bytes"], total_b, "%s bytes" % (key,))
    close(row["avg_msg_bytes"], Decimal(total_b) / len(sized), "%s avg_msg_bytes" % (key,))
    # bytes per ns is GB/s (GB = 10^9 bytes)
    close(row["algbw_gbps"], Decimal(total_b) / total_t, "%s algbw" % (key,))
    if f is None:
        if row["busbw_gbps"] != "":
            fail("%s busbw: profdb %s, reference none" % (key, row["busbw_gbps"]))
    else:
        close(row["busbw_gbps"], Decimal(total_b) * f / total_t, "%s busbw" % (key,))
    return len(sized)


def process_group(a):
    if "Process Group Name" not in a:
        return ""
    d = a.get("Process Group Description")
    return a["Process Group Name"] + (" (%s)" % d if d is not None else "")


def check_collectives(acts, rank_csv, step_csv):
    per_rank, per_step, args = {}, {}, {}
    for rank, step, c, s, e, name, a in acts:
        if c != "m":
            continue
        coll = collective(name)
        key = (coll, process_group(a), rank)
        per_rank.setdefault(key, []).append(e - s)
        args.setdefault(key, []).append((e - s, a))
        d = per_step.setdefault((step, coll), {})
        d.setdefault(rank, []).append(e - s)
    rows = {(r["collective"], r["process_group"], int(r["rank"])): r
            for r in csv.DictReader(open(rank_csv, newline=""))}
    if set(rows) != set(per_rank):
        fail("collectives: profdb %s, reference %s" % (sorted(rows), sorted(per_rank)))
    sized = 0
    for key, d in per_rank.items():
        for col, v in (("calls", len(d)), ("total_ns", sum(d)), ("avg_ns", Decimal(sum(d)) / len(d)),
                       ("median_ns", Decimal(str(statistics.median(d)))), ("max_ns", max(d))):
            close(rows[key][col], v, "%s %s" % (key, col))
        sized += check_collective_bw(key, args[key], rows[key])
    print("ok collectives: %d collective x group x rank rows, %d calls, %d with a size, every column" % (
        len(per_rank), sum(len(d) for d in per_rank.values()), sized))
    rows = {(None if r["step"] == "" else int(r["step"]), r["collective"]): r
            for r in csv.DictReader(open(step_csv, newline=""))}
    if set(rows) != set(per_step):
        fail("collectives --by step: profdb %s, reference %s" % (sorted(rows, key=str), sorted(per_step, key=str)))
    for key, ranks in per_step.items():
        tot = {r: sum(d) for r, d in ranks.items()}
        v = sorted(tot.values())
        waited = min(tot, key=lambda r: (tot[r], r))
        # named only past the straggler rule's 10 % of the median total
        med = statistics.median(v)
        if len(v) < 2 or (med - v[0]) * 100 < 10 * med:
            waited = None
        for col, x in (("ranks", len(tot)), ("calls", sum(len(d) for d in ranks.values())),
                       ("total_min_ns", v[0]), ("total_median_ns", Decimal(str(statistics.median(v)))),
                       ("total_max_ns", v[-1]), ("skew_ns", v[-1] - v[0]), ("waited_on_rank", waited)):
            close(rows[key][col], x, "%s %s" % (key, col))
    print("ok collectives --by step: %d step x collective rows, every column" % len(per_step))


ESIZE = {"float": 4, "double": 8, "c10::Half": 2, "c10::BFloat16": 2, "int": 4, "long int": 8}


def work(name, d):
    """(flops, elements) of one call, or None."""
    def g(b, m, k, n, extra=0):
        return 2 * b * m * n * k, b * (m * k + k * n + m * n) + extra
    pr = lambda v: __import__("math").prod(v)
    nd = [len(x) if isinstance(x, list) else -1 for x in d]
    if name == "aten::mm" and len(d) >= 2 and nd[:2] == [2, 2] and d[0][1] == d[1][0]:
        return g(1, d[0][0], d[0][1], d[1][1])
    if name == "aten::addmm" and len(d) >= 3 and nd[1:3] == [2, 2] and nd[0] >= 0 and d[1][1] == d[2][0]:
        return g(1, d[1][0], d[1][1], d[2][1], pr(d[0]))
    if name == "aten::bmm" and len(d) >= 2 and nd[:2] == [3, 3] and d[0][2] == d[1][1]:
        return g(d[0][0], d[0][1], d[0][2], d[1][2])
    if name == "aten::baddbmm" and len(d) >= 3 and nd[1:3] == [3, 3] and nd[0] >= 0 and d[1][2] == d[2][1]:
        return g(d[1][0], d[1][1], d[1][2], d[2][2], pr(d[0]))
    if name == "aten::linear" and len(d) >= 2 and nd[0] >= 1 and nd[1] == 2 and d[0][-1] == d[1][1]:
        return g(1, pr(d[0][:-1]), d[1][1], d[1][0], pr(d[2]) if len(d) >= 3 and nd[2] >= 0 else 0)
    if name == "aten::matmul" and len(d) >= 2 and nd[0] >= 2 and nd[1] == 2 and d[0][-1] == d[1][0]:
        return g(1, pr(d[0][:-1]), d[1][0], d[1][1])
    if name == "aten::matmul" and len(d) >= 2 and nd[:2] == [3, 3] and d[0][0] == d[1][0] and d[0][2] == d[1][1]:
        return g(d[0][0], d[0][1], d[0][2], d[1][2])
    return None


def check_flops(path, out_csv):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        events = json.load(f, parse_float=Decimal)["traceEvents"]
    names = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::linear", "aten::matmul")
    dev = {}
    devs = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    for e in devs:
        x = e.get("args", {}).get("External id")
        dev[x] = dev.get(x, 0) + ns(e["dur"])
    # 2022-23 traces: every device event's External id is its correlation id,
    # no op id; the profiler's link is then device event -> runtime call of
    # the same correlation -> innermost cpu_op on the call's thread holding
    # the call's start (doc/definitions.md "Operators and their kernels")
    by_launch = devs and all(e.get("args", {}).get("External id") == e.get("args", {}).get("correlation")
                             for e in devs)
    op_dev = {}
    if by_launch:
        kdur = {}
        for e in devs:
            c = e["args"]["correlation"]
            kdur[c] = kdur.get(c, 0) + ns(e["dur"])
        ops = {}
        for i, e in enumerate(events):
            if e.get("ph") == "X" and e.get("cat") == "cpu_op":
                ops.setdefault(e.get("tid"), []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), i))
        for e in events:
            c = e.get("args", {}).get("correlation")
            if e.get("ph") != "X" or e.get("cat") not in RUNTIME_CATS or c not in kdur:
                continue
            t = ns(e["ts"])
            inner = [o for o in ops.get(e.get("tid"), []) if o[0] <= t < o[1]]
            if inner:
                best = max(inner, key=lambda o: (o[0], -(o[1] - o[0]), o[2]))
                op_dev[best[2]] = op_dev.get(best[2], 0) + kdur[c]
    groups = {}
    for i, e in enumerate(events):
        a = e.get("args", {})
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e.get("name") in names and "Input Dims" in a:
            key = (e["name"], json.dumps(a["Input Dims"], separators=(",", ":")),
                   json.dumps(a.get("Input type"), separators=(",", ":")))
            g = groups.setdefault(key, [0, 0, a["Input Dims"], a.get("Input type")])
            g[0] += 1
            g[1] += op_dev.get(i, 0) if by_launch else dev.get(a.get("External id"), 0)
    rows = {(r["name"], r["shapes"], r["dtypes"]): r for r in csv.DictReader(open(out_csv, newline=""))}
    if set(rows) != set(groups):
        fail("flops groups: %d profdb, %d reference" % (len(rows), len(groups)))
    fitted = timed = 0
    for key, (calls, device, dims, types) in groups.items():
        row = rows[key]
        close(row["calls"], calls, "%s calls" % (key,))
        w = work(key[0], dims)
        if w is None:
            if row["gflop"] != "":
                fail("%s: profdb gflop %s, reference none" % (key, row["gflop"]))
            continue
        fitted += 1
        flops, elems = w
        es = ESIZE.get(types[0]) if types else None
        pairs = [("gflop", flops / 1e9)]
        if es:
            close(row["bytes"], elems * es, "%s bytes" % (key,))
            pairs.append(("intensity", flops / (elems * es)))
        if key[0] in ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"):
            close(row["device_ns"], device, "%s device" % (key,))
            if device:
                timed += 1
                pairs.append(("tflops", flops * calls / device / 1000))
        for col, v in pairs:
            if abs(float(row[col]) - v) > 1e-9 * max(1e-12, abs(v)):
                fail("%s %s: profdb %s, reference %r" % (key, col, row[col], v))
    print("ok flops: %d operator x shape groups, %d with a formula, %d timed, every column" % (
        len(groups), fitted, timed))


def main():
    what, fmt, path, out = sys.argv[1:5]
    if what == "bandwidth":
        check_bandwidth(path, out, len(sys.argv) > 5 and sys.argv[5] == "rank")
        return
    if what == "flops":
        check_flops(path, out)
        return
    if what == "collectives":
        acts = [a for p in path.split(",") for a in load_kineto(p)] if fmt == "kineto" else load_ascend(path)
        check_collectives(acts, out, sys.argv[5])
        return
    if what == "ranks":
        acts = [a for p in path.split(",") for a in load_kineto(p)] if fmt == "kineto" else load_ascend(path)
        check_ranks(acts, out, len(sys.argv) > 5 and sys.argv[5] == "rank")
        return
    if what == "idle":
        acts = []
        for p in path.split(","):
            acts += load_launches(p, keep_unlinked=True)[0]
        check_idle(acts, out, sys.argv[5])
        return
    by_rank = len(sys.argv) > 5 and sys.argv[5] == "rank"
    if fmt == "kineto":
        acts = [a for p in path.split(",") for a in load_kineto(p)]
    else:
        acts = load_ascend(path)
    if what == "breakdown":
        groups = check_breakdown(acts, out, by_rank)
        if fmt == "ascend" and not by_rank:
            check_step_trace(path, groups)


if __name__ == "__main__":
    main()
