#!/usr/bin/env python3
"""Independent computation of `profdb memory` from the raw files (shares no
code with profdb), compared with profdb's CSV output (--unit ns).

  memory_ref.py kineto TRACE[.gz] PROFDB_CSV [ops]
  memory_ref.py ascend EXPORT_FOLDER PROFDB_CSV

kineto: the "[memory]" instants (ph "i") with Bytes and Device Type; a
device's allocated bytes after an event are its "Total Allocated" when
written, else the running sum of Bytes from the start of the file; steps
are the host ProfilerStep#N spans [ts, ts + dur).  ops: an event's op is
the innermost host op (cpu_op, user_annotation, Operator) on its pid/tid
with start <= ts < end; an allocation is freed by the next event at its
Addr when that is a free.  ascend: memory_record.csv, MB = 2^20 bytes
(rounded to the nearest byte), one series per Device Type and Component.
Prints "<n> rows equal" or each difference (exit 1).
"""
import csv
import gzip
import json
import os
import re
import sys
from decimal import ROUND_HALF_UP, Decimal

DEVICE_TYPES = ["CPU", "CUDA", "MKLDNN", "OPENGL", "OPENCL", "IDEEP", "HIP", "FPGA", "MAIA", "XLA",
                "Vulkan", "Metal", "XPU", "MPS", "Meta", "HPU", "VE", "Lazy", "IPU", "MTIA", "PrivateUse1"]
OP_CATS = {"cpu_op", "user_annotation", "Operator"}


def load_json(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw, parse_float=Decimal)


def ns(us, base):
    return int(Decimal(us) * 1000) + base


def kineto_events(path):
    doc = load_json(path)
    base = int(doc.get("baseTimeNanoseconds", 0))
    rank = int((doc.get("distributedInfo") or {}).get("rank", 0))
    mems, ops, steps = [], [], []
    for i, e in enumerate(doc["traceEvents"]):
        if e.get("ph") == "i" and e.get("name") == "[memory]":
            a = e.get("args", {})
            if "Bytes" not in a or "Device Type" not in a:
                continue
            dt = int(a["Device Type"])
            mems.append({"i": i, "ts": ns(e["ts"], base), "bytes": int(a["Bytes"]),
                         "dev": (DEVICE_TYPES[dt] if 0 <= dt < len(DEVICE_TYPES) else str(dt),
                                 a.get("Device Id")),
                         "addr": a.get("Addr"), "ta": a.get("Total Allocated"),
                         "tr": a.get("Total Reserved"), "thread": (str(e.get("pid")), str(e.get("tid")))})
        elif e.get("ph") == "X" and e.get("cat") in OP_CATS:
            start = ns(e["ts"], base)
            end = start + int(Decimal(e["dur"]) * 1000)
            ops.append({"i": i, "start": start, "end": end, "name": e["name"],
                        "thread": (str(e.get("pid")), str(e.get("tid")))})
            m = re.fullmatch(r"ProfilerStep#(\d+)", e["name"])
            if m:
                steps.append((int(m.group(1)), start, end))
    return rank, mems, ops, steps


def step_at(steps, t):
    held = [s for s, a, b in steps if a <= t < b]
    return min(held) if held else None


def series(mems):
    """Per device: events in time order, each with its allocated value."""
    by = {}
    for m in sorted(mems, key=lambda m: (m["ts"], m["i"])):
        by.setdefault(m["dev"], []).append(m)
    for evs in by.values():
        run = 0
        for m in evs:
            run += m["bytes"]
            m["alloc"] = int(m["ta"]) if m["ta"] is not None else run
    return by


def peak_of(evs):
    best = None
    for m in evs:
        if m["alloc"] is not None and (best is None or m["alloc"] > best["alloc"]):
            best = m
    return best


def kineto_devices(path):
    rank, mems, _, steps = kineto_events(path)
    t0 = min(m["ts"] for m in mems)
    rows = {}
    for dev, evs in series(mems).items():
        pk = peak_of(evs)
        res = [int(m["tr"]) for m in evs if m["tr"] is not None]
        rows[(str(rank), dev[0], str(dev[1]), "")] = {
            "events": len(evs),
            "allocations": sum(1 for m in evs if m["bytes"] > 0),
            "frees": sum(1 for m in evs if m["bytes"] < 0),
            "allocated_bytes": sum(m["bytes"] for m in evs if m["bytes"] > 0),
            "freed_bytes": -sum(m["bytes"] for m in evs if m["bytes"] < 0),
            "peak_allocated_bytes": pk["alloc"], "peak_step": step_at(steps, pk["ts"]),
            "peak_at_ns": pk["ts"] - t0, "peak_reserved_bytes": max(res) if res else None,
            "end_allocated_bytes": evs[-1]["alloc"]}
    return rows


def innermost(ops, mems):
    """Each memory event's op name (None outside every op), by thread."""
    by = {}
    for o in ops:
        by.setdefault(o["thread"], []).append(o)
    for lst in by.values():
        lst.sort(key=lambda o: (o["start"], -(o["end"] - o["start"]), o["i"]))
    nxt = {k: 0 for k in by}
    active = {k: [] for k in by}
    for m in sorted(mems, key=lambda m: (m["thread"], m["ts"], m["i"])):
        k, t = m["thread"], m["ts"]
        m["op"] = None
        if k not in by:
            continue
        lst = by[k]
        while nxt[k] < len(lst) and lst[nxt[k]]["start"] <= t:
            active[k].append(lst[nxt[k]])
            nxt[k] += 1
        active[k] = [o for o in active[k] if o["end"] > t]
        if active[k]:
            m["op"] = max(active[k], key=lambda o: (o["start"], -(o["end"] - o["start"]), o["i"]))["name"]


def kineto_ops(path):
    rank, mems, ops, _ = kineto_events(path)
    innermost(ops, mems)
    rows = {}
    for dev, evs in series(mems).items():
        pk = peak_of(evs)
        at = {}
        for m in evs:  # the next event at the same address
            if m["addr"] is not None:
                if m["addr"] in at and at[m["addr"]]["bytes"] > 0:
                    at[m["addr"]]["free_ts"] = m["ts"] if m["bytes"] < 0 else None
                at[m["addr"]] = m
        for m in evs:
            key = (str(rank), dev[0], str(dev[1]), m["op"] or "(no op)")
            r = rows.setdefault(key, {"allocations": 0, "allocated_bytes": 0, "frees": 0, "freed_bytes": 0,
                                      "held_bytes": 0, "live_at_peak_bytes": 0})
            if m["bytes"] < 0:
                r["frees"] += 1
                r["freed_bytes"] -= m["bytes"]
                continue
            r["allocations"] += 1
            r["allocated_bytes"] += m["bytes"]
            if m["addr"] is None:
                r["held_bytes"] = r["live_at_peak_bytes"] = None
            elif r["held_bytes"] is not None:
                free = m.get("free_ts")
                r["held_bytes"] += m["bytes"] if free is None else 0
                if m["ts"] <= pk["ts"] and (free is None or free > pk["ts"]):
                    r["live_at_peak_bytes"] += m["bytes"]
    return rows


def mb(s):
    s = s.strip()
    # to the nearest byte: a spreadsheet-saved file keeps 6 decimals of MB
    return None if s in ("", "N/A") else int((Decimal(s) * 1048576).quantize(Decimal(1), ROUND_HALF_UP))


def ascend_devices(folder):
    rank = 0
    for f in os.listdir(folder):
        m = re.fullmatch(r"profiler_info_(\d+)\.json", f)
        if m:
            rank = int(m.group(1))
    with open(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "memory_record.csv"), newline="") as f:
        recs = list(csv.DictReader(f))
    by = {}
    for i, r in enumerate(recs):
        ts = int(Decimal(r["Timestamp(us)"].strip()) * 1000)
        dev = r["Device Type"]
        t, _, n = dev.rpartition(":")
        by.setdefault((t, n, r["Component"]), []).append(
            {"i": i, "ts": ts, "alloc": mb(r["Total Allocated(MB)"]), "res": mb(r["Total Reserved(MB)"])})
    t0 = min(m["ts"] for evs in by.values() for m in evs)
    rows = {}
    for (t, n, comp), evs in by.items():
        evs.sort(key=lambda m: (m["ts"], m["i"]))
        pk = peak_of(evs)
        res = [m["res"] for m in evs if m["res"] is not None]
        rows[(str(rank), t, n, comp)] = {
            "events": len(evs), "allocations": None, "frees": None,
            "peak_allocated_bytes": pk["alloc"] if pk else None,
            "peak_at_ns": pk["ts"] - t0 if pk else None,
            "peak_reserved_bytes": max(res) if res else None,
            "end_allocated_bytes": evs[-1]["alloc"]}
    return rows


def compare(want, csv_path, keycols):
    with open(csv_path, newline="") as f:
        got = {tuple(r[c] for c in keycols): r for r in csv.DictReader(f)}
    bad = 0
    for key in sorted(set(want) | set(got)):
        if key not in got or key not in want:
            print("row %s: %s" % (key, "missing from profdb" if key not in got else "not expected"))
            bad += 1
            continue
        for col, v in want[key].items():
            g = got[key][col]
            if g != ("" if v is None else str(v)):
                print("row %s %s: profdb %r, expected %r" % (key, col, g, v))
                bad += 1
    if bad:
        sys.exit(1)
    print("%d rows equal" % len(want))


def main():
    mode, src, out = sys.argv[1:4]
    ops = len(sys.argv) > 4 and sys.argv[4] == "ops"
    if mode == "kineto" and ops:
        compare(kineto_ops(src), out, ("rank", "device_type", "device_id", "op"))
    elif mode == "kineto":
        compare(kineto_devices(src), out, ("rank", "device_type", "device_id", "component"))
    else:
        compare(ascend_devices(src), out, ("rank", "device_type", "device_id", "component"))


if __name__ == "__main__":
    main()
