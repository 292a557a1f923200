#!/usr/bin/env python3
"""op_diff_ref.py - an independent reference for `profdb diff --by op`: reads
the two Kineto traces itself (json, exact decimals) and checks the per-repeat
figures of every operator key in `diff --by op --format csv --unit ns`.

usage: op_diff_ref.py BASE_TRACE NEW_TRACE DIFF.csv

Written from doc/definitions.md ("Operators and their kernels") and doc/commands.md ("diff --by op"), not from
profdb's code:
  operators      X events of cat cpu_op / user_annotation; per thread (tid)
                 sorted by (start, end descending, file order), an op is a
                 child of the innermost open op it starts before the end of
                 and ends by the end of; host self = duration - the direct
                 children's durations
  runtime calls  X events of cat cuda_runtime / cuda_driver with a correlation
                 id are operators too (torch's key_averages rows), nested with
                 the others: their time leaves the self time of the op holding them
  device link    (these 2022 traces write the correlation id as External id)
                 a device event (kernel, gpu_memcpy, gpu_memset) -> the
                 runtime call (cuda_runtime / cuda_driver) with its
                 correlation -> the innermost cpu_op on the call's thread
                 whose [ts, ts + dur) holds the call's ts
  device total   an op's linked device time plus its children's totals
  keys           "<name> device": the instances with device total > 0;
                 "<name> host_self": every instance; ProfilerStep#N are not
                 keys
  per repeat     the sum over the run / its ProfilerStep#N spans; calls
                 likewise (count / steps)
"""
import bisect
import csv
import gzip
import json
import sys
from collections import defaultdict
from decimal import Decimal


def ns(v):
    return int(Decimal(str(v)) * 1000)


def per_repeat(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal)
    ev = [e for e in (doc["traceEvents"] if isinstance(doc, dict) else doc)
          if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e and "dur" in e]
    ops, calls, dev = [], {}, defaultdict(int)
    for i, e in enumerate(ev):
        cat, a = e.get("cat"), e.get("args") or {}
        if cat in ("cpu_op", "user_annotation"):
            ops.append({"name": e["name"], "cat": cat, "tid": str(e.get("tid")), "s": ns(e["ts"]),
                        "d": ns(e["dur"]), "i": i, "kids": [], "self": ns(e["dur"]), "link": 0})
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in a:
            calls[a["correlation"]] = (str(e.get("tid")), ns(e["ts"]))
            # a runtime call is also a host op of its own, nested as torch does
            ops.append({"name": e["name"], "cat": cat, "tid": str(e.get("tid")), "s": ns(e["ts"]),
                        "d": ns(e["dur"]), "i": i, "kids": [], "self": ns(e["dur"]), "link": 0})
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset") and "correlation" in a:
            dev[a["correlation"]] += ns(e["dur"])
    ops.sort(key=lambda o: (o["tid"], o["s"], -(o["s"] + o["d"]), o["i"]))
    stack = []
    for o in ops:
        while stack and not (stack[-1]["tid"] == o["tid"] and o["s"] < stack[-1]["s"] + stack[-1]["d"]
                             and o["s"] + o["d"] <= stack[-1]["s"] + stack[-1]["d"]):
            stack.pop()
        if stack:
            stack[-1]["kids"].append(o)
            stack[-1]["self"] -= o["d"]
        stack.append(o)
    # the innermost cpu_op holding each call: the latest start (then the
    # shorter, then the later in the file) whose span holds the call's ts
    by_tid = defaultdict(list)
    for o in ops:
        if o["cat"] == "cpu_op":
            by_tid[o["tid"]].append(o)
    starts = {t: [o["s"] for o in v] for t, v in by_tid.items()}
    for corr, t in dev.items():
        if corr not in calls:
            continue
        tid, ts = calls[corr]
        v = by_tid.get(tid, [])
        k = bisect.bisect_right(starts.get(tid, []), ts) - 1
        while k >= 0 and not (v[k]["s"] <= ts < v[k]["s"] + v[k]["d"]):
            k -= 1
        if k >= 0:
            v[k]["link"] += t
    for o in reversed(ops):
        o["dt"] = o["link"] + sum(c["dt"] for c in o["kids"])
    steps = len({o["name"] for o in ops if o["name"].startswith("ProfilerStep#")}) or 1
    out = defaultdict(lambda: [0, 0])
    for o in ops:
        if o["name"].startswith("ProfilerStep#"):
            continue
        if o["dt"] > 0:
            out[o["name"] + " device"][0] += o["dt"]
            out[o["name"] + " device"][1] += 1
        out[o["name"] + " host_self"][0] += o["self"]
        out[o["name"] + " host_self"][1] += 1
    return {k: (Decimal(v[0]) / steps, Decimal(v[1]) / steps) for k, v in out.items()}


def main():
    base, new = per_repeat(sys.argv[1]), per_repeat(sys.argv[2])
    rows = {r["op"]: r for r in csv.DictReader(open(sys.argv[3], newline=""))}
    keys = set(base) | set(new)
    if set(rows) != keys:
        print("MISMATCH keys: only profdb %s; only reference %s" % (
            sorted(set(rows) - keys)[:5], sorted(keys - set(rows))[:5]))
        sys.exit(1)
    for k in sorted(keys):
        r = rows[k]
        for col, side in (("base", base), ("new", new)):
            v, c = side.get(k, (Decimal(0), Decimal(0)))
            if abs(Decimal(r[col + "_ns"]) - v) > Decimal("0.001") or \
                    abs(Decimal(r[col + "_calls"]) - c) > Decimal("0.001"):
                print("MISMATCH %s %s: profdb %s ns x %s, reference %s ns x %s" % (
                    k, col, r[col + "_ns"], r[col + "_calls"], v, c))
                sys.exit(1)
    print("ok diff --by op: %d keys (%d device, %d host_self), per-repeat time and calls of both sides" % (
        len(keys), sum(k.endswith(" device") for k in keys), sum(k.endswith(" host_self") for k in keys)))


main()
