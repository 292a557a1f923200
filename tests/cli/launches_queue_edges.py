#!/usr/bin/env python3
"""launches_queue_edges.py - the expected `profdb launches` figures of
testdata/launches/queue_edges.json, from doc/analyses.md "launches" and none of
profdb's code, compared with its csv (--unit ns).

usage: launches_queue_edges.py TRACE.json NAME.csv STREAM.csv STEP.csv

One rank, every call an async launch of one activity (the Synchronize call
launches nothing).  The step of a call is the ProfilerStep span holding its
start (none: outside every step).  Queue of a stream: +1 at each launch, -1 at
each end, the ends first at one time; an activity that ends before its launch
is no queue entry; window = first event to last.  Percentiles: linear between
the closest ranks.
"""
import csv
import json
import sys

tr = json.load(open(sys.argv[1]))["traceEvents"]
us = 1000
steps = [(e["ts"] * us, (e["ts"] + e["dur"]) * us, int(e["name"].split("#")[1]))
         for e in tr if e["name"].startswith("ProfilerStep#")]
calls = {e["args"]["correlation"]: e for e in tr if e["cat"] == "cuda_runtime"}
acts = []  # (name, stream, ls, ld, ks, ke, step)
for e in tr:
    if e["cat"] in ("kernel", "gpu_memset"):
        c = calls[e["args"]["correlation"]]
        ls = c["ts"] * us
        step = next((n for a, b, n in steps if a <= ls < b), None)
        acts.append((e["name"], e["args"]["stream"], ls, c["dur"] * us, e["ts"] * us,
                     (e["ts"] + e["dur"]) * us, step))
sync = {n: sum(c["dur"] * us for c in calls.values() if "Synchronize" in c["name"] and a <= c["ts"] * us < b)
        for a, b, n in steps}


def pct(v, p):
    v = sorted(v)
    h = (len(v) - 1) * p / 100
    lo = int(h)
    return v[lo] if lo + 1 >= len(v) else v[lo] + (h - lo) * (v[lo + 1] - v[lo])


def check(row, col, want):
    got = row[col]
    if want is None:
        ok = got == ""
    else:
        ok = got != "" and abs(float(got) - want) <= 1e-9 * max(1.0, abs(want))
    if not ok:
        print("FAIL %s %s: profdb %r, expected %r" % (row.get("name") or row.get("stream") or row.get("step"),
                                                       col, got, want))
        sys.exit(1)


def rows(path, key):
    return {r[key]: r for r in csv.DictReader(open(path, newline=""))}


# --by name: the (all) row and one per activity name
delays = [a[4] - a[2] for a in acts]
q1, q3 = pct(delays, 25), pct(delays, 75)
fence = q3 + 3 * (q3 - q1)
byname = rows(sys.argv[2], "name")
for name in ["(all)"] + sorted({a[0] for a in acts}):
    g = [a for a in acts if name in ("(all)", a[0])]
    d = [a[4] - a[2] for a in g]
    e = [max(0, a[4] - a[2] - a[3]) for a in g]
    r = byname[name]
    for col, v in (("calls", len(g)), ("launch_total_ns", sum(a[3] for a in g)), ("launch_max_ns", max(a[3] for a in g)),
                   ("start_delay_median_ns", pct(d, 50)), ("start_delay_p90_ns", pct(d, 90)),
                   ("start_delay_p99_ns", pct(d, 99)), ("start_delay_max_ns", max(d)),
                   ("end_delay_median_ns", pct(e, 50)), ("end_delay_p90_ns", pct(e, 90)),
                   ("end_delay_max_ns", max(e)), ("outliers", sum(x > fence for x in d))):
        check(r, col, v)
print("ok launches --by name: %d rows, fence %g ns" % (len(byname), fence))

# --by stream: the queue
bystream = rows(sys.argv[3], "stream")
for st in sorted({a[1] for a in acts}):
    g = [a for a in acts if a[1] == st]
    ev = sorted([(a[2], 1) for a in g if a[5] >= a[2]] + [(a[5], -1) for a in g if a[5] >= a[2]])
    q = qmax = area = some = 0
    for i, (t, dq) in enumerate(ev):
        if i:
            area += q * (t - ev[i - 1][0])
            some += (t - ev[i - 1][0]) if q > 0 else 0
        q += dq
        qmax = max(qmax, q)
    w = ev[-1][0] - ev[0][0]
    d = [a[4] - a[2] for a in g]
    r = bystream[str(st)]
    for col, v in (("kernels", len(g)), ("queue_max", qmax), ("queue_mean", area / w if w else None),
                   ("queued_pct", 100 * some / w if w else None), ("start_delay_median_ns", pct(d, 50)),
                   ("start_delay_max_ns", max(d))):
        check(r, col, v)
print("ok launches --by stream: %d streams" % len(bystream))


def covered(segs, lo, hi):
    t, cur = 0, None
    for s, e in sorted((max(s, lo), min(e, hi)) for s, e in segs if s < e and s < hi and e > lo):
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
        else:
            t += cur[1] - cur[0] if cur else 0
            cur = [s, e]
    return t + (cur[1] - cur[0] if cur else 0)


# --by step: host_wait, queued over the step's device span, the rank's every launch
bystep = rows(sys.argv[4], "step")
for n in sorted({a[6] for a in acts}, key=lambda x: -1 if x is None else x):
    g = [a for a in acts if a[6] == n]
    lo, hi = min(a[4] for a in g), max(a[5] for a in g)
    hw = (hi - lo) - covered([(a[2], a[5]) for a in acts], lo, hi)
    qd = covered([(a[2], a[4]) for a in acts], lo, hi)
    r = bystep["" if n is None else str(n)]
    for col, v in (("span_ns", hi - lo), ("kernels", len(g)), ("host_wait_ns", hw), ("queued_ns", qd),
                   ("host_sync_ns", sync.get(n, 0))):
        check(r, col, v)
    if r["bound"] != ("host" if hw > qd else "device"):
        print("FAIL step %s bound: profdb %s" % (n, r["bound"]))
        sys.exit(1)
print("ok launches --by step: %d steps" % len(bystep))
