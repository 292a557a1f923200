#!/usr/bin/env python3
"""Independent reference for per-repeat figures where device work ran
outside every profiler step (tests/cli/outside_steps.sh).  Shares no code
with profdb: reads the Kineto JSON itself.

A device activity (cat kernel, gpu_memcpy, gpu_memset) belongs to the
ProfilerStep#N whose span holds the start of the runtime call that launched
it (same args.correlation); one with no launch record, or launched outside
every step, is outside every step.  Per name: the per-step mean is the sum
over the steps / the number of steps (a step it did not run in counts 0).

usage: outside_steps_ref.py TRACE kernels KERNELS.csv
       outside_steps_ref.py TRACE summary SUMMARY.json
       outside_steps_ref.py TRACE apis APIS.csv  (`profdb apis --format csv --unit ns`)
       outside_steps_ref.py TRACE diff DIFF.csv  (`profdb diff --format csv --unit ns`, TRACE the new side)
       outside_steps_ref.py TRACE note TEXT   (text holding profdb's notes)
KERNELS.csv: `profdb kernels --format csv --unit ns --top 0` (per_repeat, name);
SUMMARY.json: `profdb summary --format json --unit ns` (outside_kernels, outside_device_ns).
"""
import collections
import csv
import gzip
import json
import sys

DEVICE = {"kernel", "gpu_memcpy", "gpu_memset"}
RUNTIME = {"cuda_runtime", "cuda_driver"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        return json.load(fh)["traceEvents"]


def ns(us):
    return round(float(us) * 1000)


def analyse(path):
    ev = load(path)
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1]))
                   for e in ev if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#"))
    launch = {}
    for e in ev:
        if e.get("cat") in RUNTIME and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = ns(e["ts"])
    in_step = collections.defaultdict(int)       # name -> ns inside steps
    out_n, out_ns = 0, 0
    for e in ev:
        if e.get("cat") not in DEVICE or e.get("ph") != "X":
            continue
        t = launch.get(e.get("args", {}).get("correlation"))
        step = None
        if t is not None:
            for lo, hi, n in steps:
                if lo <= t < hi:
                    step = n
                    break
        if step is None:
            out_n += 1
            out_ns += ns(e["dur"])
        else:
            in_step[e["name"]] += ns(e["dur"])
    return len(steps), in_step, out_n, out_ns


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def main():
    trace, what, arg = sys.argv[1], sys.argv[2], sys.argv[3]
    nsteps, in_step, out_n, out_ns = analyse(trace)
    if what == "note":
        print(f"{out_n} device activities ({out_ns / 1000:.3f} us) ran outside every step")
        return 0
    if what == "apis":
        row = list(csv.DictReader(open(arg)))[0]
        ref = sum(in_step.values()) / nsteps
        if not close(float(row["per_repeat_ns"]), ref):
            print(f"apis per_repeat: profdb {row['per_repeat_ns']} reference {ref}")
            return 1
        print(f"apis: per_repeat {ref:.1f} ns = the mean of {nsteps} per-step totals")
        return 0
    if what == "summary":
        s = json.load(open(arg))
        want = {"repeats": nsteps, "outside_kernels": out_n, "outside_device_ns": out_ns}
        for k, v in want.items():
            if s.get(k) is None or not close(float(s[k]), v):
                print(f"summary {k}: profdb {s.get(k)} reference {v}")
                return 1
        print(f"summary: {nsteps} steps, {out_n} activities ({out_ns} ns) outside every step")
        return 0
    bad = 0
    rows = list(csv.DictReader(open(arg)))
    if what == "diff":  # the trace is diff's new side: new_ns per name
        for r in rows:
            ref = in_step.get(r["name"], 0) / nsteps
            if ref == 0 and r["new_ns"] == "":
                continue
            if r["new_ns"] == "" or not close(float(r["new_ns"]), ref):
                print(f"diff new_ns of {r['name'][:60]}: profdb {r['new_ns'] or 'empty'} reference {ref}")
                bad += 1
        names = {r["name"] for r in rows}
        if any(n not in names for n in in_step):
            print("a name with time inside the steps is missing from diff's rows")
            bad += 1
        if not bad:
            print(f"diff: {len(rows)} names, new_ns = per-step mean over {nsteps} steps")
        return 1 if bad else 0
    seen = set()
    for r in rows:
        name = r["name"]
        seen.add(name)
        ref = in_step.get(name, 0) / nsteps
        got = r["per_repeat_ns"]
        if ref == 0 and got == "":
            continue
        if got == "" or not close(float(got), ref):
            print(f"per_repeat of {name[:60]}: profdb {got or 'empty'} reference {ref}")
            bad += 1
    missing = [n for n in in_step if n not in seen]
    if missing:
        print(f"{len(missing)} names missing from profdb's rows, e.g. {missing[0][:60]}")
        bad += 1
    if not bad:
        print(f"kernels: {len(rows)} names, per_repeat = per-step mean over {nsteps} steps")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
