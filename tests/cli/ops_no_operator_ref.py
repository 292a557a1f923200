#!/usr/bin/env python3
"""ops_no_operator_ref.py - device time no operator claims, from a raw Kineto trace.

usage: ops_no_operator_ref.py TRACE SUMMARY.csv OPS.csv

Shares no code with profdb.  SUMMARY.csv and OPS.csv are profdb summary and ops
(--format csv --unit ns for ops) of the run ingested from TRACE alone.

Rules (README "### ops", device time outside every operator):
- device events: ph "X" with cat kernel, gpu_memcpy, gpu_memset, mtia_ccp_events (or the
  2021 names Kernel, Memcpy, Memset); the run's device time is the sum of their durations.
- operators: ph "X" with cat cpu_op, user_annotation or Operator.
- a device event is an operator's when its args "External id" ("external id" in 2021) is an operator's External
  id; except in a trace whose device events carry their correlation id as External id
  (every device event with both has them equal): there it is the op of its launch call
  (the cuda_runtime / cuda_driver / ... event with its correlation), the innermost
  operator other than a user_annotation whose [ts, ts + dur) holds the call's ts on the
  call's tid.
- (no operator) = device time - device time of the events some operator claims; no row when
  that is 0 or when the trace has no operators.
Checks: profdb's (no operator) row equals that; in a trace with operators the ops rows'
device_self sum equals summary's total_device_us and this script's device time.  Prints the figures."""
import csv
import gzip
import json
import sys
from decimal import Decimal

DEVICE = {"kernel", "gpu_memcpy", "gpu_memset", "mtia_ccp_events", "Kernel", "Memcpy", "Memset"}
OPS = {"cpu_op", "user_annotation", "Operator"}
CALLS = {"cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime", "privateuse1_runtime",
         "privateuse1_driver", "xpu_runtime", "xpu_driver", "mlu_runtime"}


def ns(v):
    return int(Decimal(str(v)) * 1000)


def main():
    trace, summary_csv, ops_csv = sys.argv[1:4]
    raw = open(trace, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    dev, ops, calls = [], [], {}
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        cat, args = e.get("cat"), e.get("args") or {}
        if cat in DEVICE:
            # the 2021 format writes "external id" on device events
            dev.append((ns(e["dur"]), args.get("External id", args.get("external id")), args.get("correlation")))
        elif cat in OPS:
            ops.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), str(e.get("tid")), args.get("External id"), cat))
        elif cat in CALLS and args.get("correlation") is not None:
            calls[args["correlation"]] = (ns(e["ts"]), str(e.get("tid")))
    total = sum(d[0] for d in dev)
    both = [d for d in dev if d[1] is not None and d[2] is not None]
    by_call = bool(both) and all(d[1] == d[2] for d in both)
    if by_call:
        # sweep each thread's operators and calls in time order with a stack of open operators
        owner_of = {}
        items = [(o[2], o[0], 0, -o[1], i) for i, o in enumerate(ops) if o[4] != "user_annotation"]
        items += [(c[1], c[0], 1, 0, corr) for corr, c in calls.items()]
        stack, tid = [], None
        for t, start, is_call, neg_end, key in sorted(items, key=lambda x: x[:4]):
            if t != tid:
                stack, tid = [], t
            while stack and stack[-1][1] <= start:
                stack.pop()
            if is_call:
                owner_of[key] = stack[-1][0] if stack else None
            else:
                stack.append((key, -neg_end))
        claimed = sum(d[0] for d in dev
                      if owner_of.get(d[2]) is not None and ops[owner_of[d[2]]][3] is not None)
    else:
        ids = {o[3] for o in ops if o[3] is not None}
        claimed = sum(d[0] for d in dev if d[1] is not None and d[1] in ids)
    want = total - claimed if ops else 0
    summary = list(csv.DictReader(open(summary_csv)))[0]
    rows = list(csv.DictReader(open(ops_csv)))
    got = [r for r in rows if r["name"] == "(no operator)"]
    ok = True
    if want == 0 and got:
        print("MISMATCH (no operator) row %s ns, want none" % got[0]["device_self_ns"])
        ok = False
    if want and (len(got) != 1 or int(got[0]["device_self_ns"]) != want):
        print("MISMATCH (no operator) %s, want %d ns" % ([r["device_self_ns"] for r in got], want))
        ok = False
    rows_sum = sum(int(r["device_self_ns"] or 0) for r in rows)
    summ = ns(summary["total_device_us"])
    if ops and (rows_sum != summ or summ != total):
        print("MISMATCH device_self sum %d ns, summary total_device %d ns, trace %d ns" % (rows_sum, summ, total))
        ok = False
    if not ops:
        print("%d device events, %d ns; no operators: no (no operator) row, nothing to attribute%s"
              % (len(dev), total, "" if ok else ": MISMATCH"))
    else:
        print("%d device events, %d ns; %d operators; linked by %s; (no operator) %s; device_self sum =="
              " total_device" % (len(dev), total, len(ops), "launch call" if by_call else "External id",
                                 "%d ns" % want if want else "no row") + ("" if ok else ": MISMATCH"))
    sys.exit(0 if ok else 1)


main()
