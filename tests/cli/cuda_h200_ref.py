#!/usr/bin/env python3
"""cuda_h200_ref.py - an independent reference for profdb over a real torch CUDA trace.

usage: cuda_h200_ref.py TRACE.json.gz KEY_AVERAGES.json RUN KERNELS.csv STEPS.csv OPS.csv

TRACE is one of testdata/kineto_cuda/*.pt.trace.json.gz (torch 2.11, NVIDIA H200), RUN the
name of its entry in KEY_AVERAGES.json (torch's own prof.key_averages() of the same
profile, written by scripts/capture-cuda-trace.py), and the CSVs are profdb's output for
that run with --format csv --unit ns (kernels, steps, ops).  Uses nothing from profdb: the
trace is read here with json (numbers as exact decimals) and every figure is recomputed
from the raw events with the rules of doc/FORMATS.md section 5 (written down below).

Rules of this reference:
- Durations and timestamps are microseconds with exactly 3 decimals: times are turned into
  integer ns (the script stops if one is not a whole number of ns).
- Device events: ph "X" with cat kernel, gpu_memset or gpu_memcpy (gpu_user_annotation,
  cuda_sync and the Trace span are not device work).  Grouped by their "name" as written
  (memsets are "Memset (Device)" in the trace and in profdb).
- Host ops: ph "X" with cat cpu_op or user_annotation on the CPU.  ProfilerStep#N spans are
  one name, "ProfilerStep*", as in torch's key_averages and profdb ops.
- Launch calls: ph "X" with cat cuda_runtime or cuda_driver; a device event's launch is the
  call with the same args.correlation.
- Steps: the user_annotation spans named ProfilerStep#N; a device event belongs to step N
  when its launch call starts in [ts, ts + dur) of ProfilerStep#N (the kernel itself may
  run after the span ends).
- Nesting on one thread (tid) is time containment: events sorted by (start, end
  descending, file order); the parent of an event is the innermost open event whose
  interval contains it.  self = duration - the durations of the direct children.

Checks, each exact unless a tolerance is named:
  kernels  per name: calls, total, min, max (integer ns); avg = total / calls, median
           (mean of the two middle values for an even count), sample stddev, p90 and p99
           (linear interpolation between closest ranks, numpy's default) and per_repeat =
           total / number of ProfilerSteps: within 0.0005 ns, as profdb prints 3 decimals
           of ns; share = 100 * total / the run's device total: relative 1e-12 (profdb
           prints 15 significant digits).  The set of names must be the same.
  steps    per ProfilerStep#N: kernels (count of device events), device_total, wall (the
           span's dur), span (first device start to last device end), busy (length of the
           union of the device intervals), busy_pct (100 * busy / span, relative 1e-12),
           top_kernel/top_total (the name with the largest total in the step).
  torch    key_averages rows with device_type CUDA, other than the gpu_user_annotation
  device   names (ProfilerStep*, forward, ...: torch lists those spans mirrored on the GPU
           stream, they are not device work): the same set of names as profdb kernels,
           count == profdb calls, |self_device_us * 1000 - profdb total_ns| <= 0.5 ns, i.e.
           equal at ns once torch's float is rounded.  torch does not round to whole us
           here: its figures are float sums of the same 3-decimal us values the trace
           holds, off by float rounding only (the largest difference seen is printed).
  ops      per name, against this script's nesting of host ops and launch calls together,
           as torch nests them (each launch call is a row of its own in profdb ops, with no
           device time): calls, host_total (sum of dur), host_self; device_self
           (durations of the device events whose args["External id"] is the op's, i.e.
           kernels the op launched itself) and device_total (own + children's totals).
  torch    key_averages rows with device_type CPU, key by key against profdb ops: the same
  host     set of names (operators and runtime calls: cudaLaunchKernel, cuLaunchKernel,
           cudaMemsetAsync, cudaDeviceSynchronize, ...), count == calls, |self_cpu_us * 1000 -
           host_self| <= 0.5 ns for every name; device_us / self_device_us within 0.5 ns of
           device_total / device_self for the operators; the sum of self_cpu_us (torch's
           "Self CPU time total") equal to the sum of profdb's host_self.
Prints what it checked; exits 1 after printing every MISMATCH line."""
import csv
import gzip
import json
import sys
from decimal import Decimal, getcontext
from fractions import Fraction

DEVICE_CATS = {"kernel", "gpu_memset", "gpu_memcpy"}
HOST_CATS = {"cpu_op", "user_annotation"}
LAUNCH_CATS = {"cuda_runtime", "cuda_driver"}
ROUND_TOL = Fraction(5, 10000)     # ns: half of profdb's last printed decimal
REL_TOL = Fraction(1, 10**12)
TORCH_TOL = Fraction(1, 2)         # ns: torch's float sums of us, rounded to ns, are exact

problems = []


def mismatch(msg):
    problems.append(msg)
    print("MISMATCH " + msg)


def ns(value):
    v = Decimal(str(value)) * 1000
    if v != v.to_integral_value():
        sys.exit("not a whole number of ns: %s" % value)
    return int(v)


def op_name(name):
    return "ProfilerStep*" if name.startswith("ProfilerStep#") else name


def short(name):
    return name if len(name) <= 60 else name[:57] + "..."


def close(got, want, tol):
    return abs(Fraction(got) - Fraction(want)) <= tol


def close_rel(got, want):
    want = Fraction(want)
    return abs(Fraction(got) - want) <= REL_TOL * abs(want)


def num(text):
    return Fraction(Decimal(text))


def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    device, host, launches, steps = [], [], {}, {}
    for i, e in enumerate(events):
        if e.get("ph") != "X" or "dur" not in e:
            continue
        cat, args = e.get("cat"), e.get("args") or {}
        ev = {"name": e["name"], "start": ns(e["ts"]), "dur": ns(e["dur"]), "tid": str(e.get("tid")),
              "i": i, "corr": args.get("correlation"), "xid": args.get("External id")}
        ev["end"] = ev["start"] + ev["dur"]
        if cat in DEVICE_CATS:
            device.append(ev)
        elif cat in LAUNCH_CATS:
            ev["launch"] = True
            if ev["corr"] in launches:
                sys.exit("two launch calls with correlation %r" % ev["corr"])
            launches[ev["corr"]] = ev
        elif cat in HOST_CATS:
            host.append(ev)
            if cat == "user_annotation" and e["name"].startswith("ProfilerStep#"):
                steps[int(e["name"][len("ProfilerStep#"):])] = ev
    gpu_annotations = {op_name(e["name"]) for e in events
                       if e.get("ph") == "X" and e.get("cat") == "gpu_user_annotation"}
    return device, host, launches, steps, gpu_annotations


def nest(events):
    """Direct children by time containment per thread; sets ev['kids']."""
    order = sorted(events, key=lambda e: (e["tid"], e["start"], -e["end"], e["i"]))
    stack = []
    for e in order:
        e["kids"] = []
        while stack and not (stack[-1]["tid"] == e["tid"] and stack[-1]["start"] <= e["start"]
                             and e["end"] <= stack[-1]["end"]):
            stack.pop()
        if stack:
            stack[-1]["kids"].append(e)
        stack.append(e)
    return order


def quantile(xs, q):
    pos = (len(xs) - 1) * Fraction(q)
    lo = int(pos)
    if lo + 1 >= len(xs):
        return Fraction(xs[lo])
    return xs[lo] + (xs[lo + 1] - xs[lo]) * (pos - lo)


def sqrt(x):
    getcontext().prec = 40
    return Fraction((Decimal(x.numerator) / Decimal(x.denominator)).sqrt())


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_kernels(run, device, nsteps, rows):
    groups = {}
    for d in device:
        groups.setdefault(d["name"], []).append(d["dur"])
    run_total = sum(d["dur"] for d in device)
    got = {r["name"]: r for r in rows}
    if set(got) != set(groups):
        mismatch("%s kernels: names only in profdb %r, only in the trace %r"
                 % (run, sorted(set(got) - set(groups)), sorted(set(groups) - set(got))))
    for name, durs in sorted(groups.items()):
        r = got.get(name)
        if r is None:
            continue
        xs = sorted(durs)
        n, total = len(xs), sum(xs)
        mean = Fraction(total, n)
        exact = {"calls": n, "total_ns": total, "min_ns": xs[0], "max_ns": xs[-1]}
        approx = {"avg_ns": mean, "median_ns": quantile(xs, Fraction(1, 2)),
                  "p90_ns": quantile(xs, Fraction(9, 10)), "p99_ns": quantile(xs, Fraction(99, 100)),
                  "per_repeat_ns": Fraction(total, nsteps)}
        if n > 1:
            approx["stddev_ns"] = sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
        elif r["stddev_ns"] != "":
            mismatch("%s kernel %s: stddev %r for one call" % (run, short(name), r["stddev_ns"]))
        for col, want in exact.items():
            if int(r[col]) != want:
                mismatch("%s kernel %s: %s %s, trace %d" % (run, short(name), col, r[col], want))
        for col, want in approx.items():
            if not close(num(r[col]), want, ROUND_TOL):
                mismatch("%s kernel %s: %s %s, trace %.4f" % (run, short(name), col, r[col], float(want)))
        if not close_rel(num(r["share_pct"]), Fraction(100 * total, run_total)):
            mismatch("%s kernel %s: share_pct %s, trace %r"
                     % (run, short(name), r["share_pct"], float(Fraction(100 * total, run_total))))
    print("%s kernels: %d names, %d device events, total %d ns, %d steps: calls/total/min/max exact,"
          " avg/median/stddev/p90/p99/per_repeat within 0.0005 ns, share within 1e-12 relative"
          % (run, len(groups), len(device), run_total, nsteps))


def check_steps(run, device, launches, steps, rows):
    per = {n: [] for n in steps}
    outside = 0
    for d in device:
        call = launches.get(d["corr"])
        where = None
        if call is not None:
            where = [n for n, s in steps.items() if s["start"] <= call["start"] < s["end"]]
            if len(where) > 1:
                sys.exit("launch %r in two steps %r" % (call["name"], where))
        if where:
            per[where[0]].append(d)
        else:
            outside += 1
    got = {r["step"]: r for r in rows}
    want_keys = {str(n) for n in steps} | ({""} if outside else set())
    if set(got) != want_keys:
        mismatch("%s steps: profdb rows %r, trace %r" % (run, sorted(got), sorted(want_keys)))
    for n, ds in sorted(per.items()):
        r = got.get(str(n))
        if r is None:
            continue
        total = sum(d["dur"] for d in ds)
        first, last = min(d["start"] for d in ds), max(d["end"] for d in ds)
        busy, cur_s, cur_e = 0, None, None
        for d in sorted(ds, key=lambda d: d["start"]):
            if cur_e is None or d["start"] > cur_e:
                busy += 0 if cur_e is None else cur_e - cur_s
                cur_s, cur_e = d["start"], d["end"]
            else:
                cur_e = max(cur_e, d["end"])
        busy += cur_e - cur_s
        by_name = {}
        for d in ds:
            by_name[d["name"]] = by_name.get(d["name"], 0) + d["dur"]
        top = max(by_name.values())
        want = {"kernels": len(ds), "device_total_ns": total, "wall_ns": steps[n]["dur"],
                "span_ns": last - first, "busy_ns": busy, "top_total_ns": top}
        for col, v in want.items():
            if int(r[col]) != v:
                mismatch("%s step %d: %s %s, trace %d" % (run, n, col, r[col], v))
        if by_name.get(r["top_kernel"]) != top:
            mismatch("%s step %d: top_kernel %s is not a name with the step's largest total"
                     % (run, n, short(r["top_kernel"])))
        if not close_rel(num(r["busy_pct"]), Fraction(100 * busy, last - first)):
            mismatch("%s step %d: busy_pct %s, trace %r"
                     % (run, n, r["busy_pct"], float(Fraction(100 * busy, last - first))))
    counts = " ".join("%d:%d" % (n, len(per[n])) for n in sorted(per))
    print("%s steps: %d (ProfilerStep#%d..#%d), device events per step %s, outside every step %d:"
          " kernels, device_total, wall, span, busy, top_total exact, busy_pct within 1e-12 relative"
          % (run, len(steps), min(steps), max(steps), counts, outside))


def check_torch_device(run, kernel_rows, averages, gpu_annotations):
    """torch's device rows against profdb kernels' rows directly."""
    rows = {r["name"]: r for r in averages
            if r["device_type"] == "DeviceType.CUDA" and r["name"] not in gpu_annotations}
    got = {r["name"]: r for r in kernel_rows}
    if set(rows) != set(got):
        mismatch("%s key_averages CUDA: names only in torch %r, only in profdb kernels %r"
                 % (run, sorted(set(rows) - set(got)), sorted(set(got) - set(rows))))
    worst = 0
    for name in sorted(set(rows) & set(got)):
        r, p = rows[name], got[name]
        diff = abs(Fraction(Decimal(repr(r["self_device_us"]))) * 1000 - int(p["total_ns"]))
        worst = max(worst, diff)
        if r["count"] != int(p["calls"]) or diff > TORCH_TOL:
            mismatch("%s key_averages %s: count %d, self_device %r us; profdb %s calls, %s ns"
                     % (run, short(name), r["count"], r["self_device_us"], p["calls"], p["total_ns"]))
    skipped = sorted(n for n in gpu_annotations if any(
        r["name"] == n and r["device_type"] == "DeviceType.CUDA" for r in averages))
    print("%s torch key_averages CUDA rows: %d names (not the gpu_user_annotation rows %s):"
          " count == profdb calls, largest |self_device - profdb total| %.3f ns (tolerance %.1f ns)"
          % (run, len(rows), ", ".join(skipped), float(worst), float(TORCH_TOL)))


def check_ops(run, device, host, launches, averages, rows):
    # torch's nesting: host ops and launch calls together, by time containment
    calls = list(launches.values())
    own_dev = {}
    for d in device:
        own_dev[d["xid"]] = own_dev.get(d["xid"], 0) + d["dur"]
    # children sort after their parents in nest()'s order: walk it backwards
    for e in reversed(nest(host + calls)):
        e["self"] = e["dur"] - sum(k["dur"] for k in e["kids"])
        if not e.get("launch"):
            e["dself"] = own_dev.get(e["xid"], 0)
            e["dtotal"] = e["dself"] + sum(k.get("dtotal", 0) for k in e["kids"])
    agg = {}
    for e in host + calls:
        a = agg.setdefault(op_name(e["name"]), {"calls": 0, "host_total_ns": 0, "host_self_ns": 0,
                                                 "device_self_ns": 0, "device_total_ns": 0})
        a["calls"] += 1
        a["host_total_ns"] += e["dur"]
        a["host_self_ns"] += e["self"]
        if e.get("launch"):
            a["device_self_ns"] = a["device_total_ns"] = ""   # a runtime call has no device time
        else:
            a["device_self_ns"] += e["dself"]
            a["device_total_ns"] += e["dtotal"]
    got = {r["name"]: r for r in rows}
    if set(got) != set(agg):
        mismatch("%s ops: names only in profdb %r, only in the trace %r"
                 % (run, sorted(set(got) - set(agg)), sorted(set(agg) - set(got))))
    for name in sorted(set(got) & set(agg)):
        for col, v in agg[name].items():
            if got[name][col] != str(v):
                mismatch("%s op %s: %s %s, trace %s" % (run, name, col, got[name][col], v))
    launch_names = {c["name"] for c in calls}
    print("%s ops: %d names (%d of them runtime calls: %s), %d ops and %d calls nested together:"
          " calls, host_total, host_self, device_self, device_total exact"
          % (run, len(agg), len(launch_names), ", ".join(sorted(launch_names)), len(host), len(calls)))

    # torch's own key_averages, key by key
    cpu = {r["name"]: r for r in averages if r["device_type"] == "DeviceType.CPU"}
    if set(cpu) != set(got):
        mismatch("%s key_averages CPU: names only in torch %r, only in profdb ops %r"
                 % (run, sorted(set(cpu) - set(got)), sorted(set(got) - set(cpu))))
    worst, dev_worst = 0, 0
    torch_total, profdb_total = Fraction(0), 0
    for name in sorted(set(cpu) & set(got)):
        r, p = cpu[name], got[name]
        torch_self = Fraction(Decimal(repr(r["self_cpu_us"]))) * 1000
        torch_total += torch_self
        worst = max(worst, abs(torch_self - int(p["host_self_ns"])))
        if r["count"] != int(p["calls"]) or abs(torch_self - int(p["host_self_ns"])) > TORCH_TOL:
            mismatch("%s key_averages %s: count %d, self_cpu %r us; profdb %s calls, host_self %s ns"
                     % (run, name, r["count"], r["self_cpu_us"], p["calls"], p["host_self_ns"]))
        if name in launch_names:
            continue
        for tcol, pcol in (("device_us", "device_total_ns"), ("self_device_us", "device_self_ns")):
            dev_worst = max(dev_worst, abs(Fraction(Decimal(repr(r[tcol]))) * 1000 - int(p[pcol])))
            if abs(Fraction(Decimal(repr(r[tcol]))) * 1000 - int(p[pcol])) > TORCH_TOL:
                mismatch("%s key_averages %s: %s %r, profdb %s %s" % (run, name, tcol, r[tcol], pcol, p[pcol]))
    profdb_total = sum(int(p["host_self_ns"]) for p in rows)
    # torch's "Self CPU time total" is the sum of its events' self CPU times
    if abs(torch_total - profdb_total) > TORCH_TOL * max(1, len(cpu)):
        mismatch("%s Self CPU time total: torch %.3f us, profdb %d ns" % (run, float(torch_total) / 1000,
                                                                          profdb_total))
    print("%s torch key_averages CPU rows: %d names == profdb ops' names; count == calls and |self_cpu -"
          " host_self| <= %.1f ns for every name (largest %.3f ns); device_us / self_device_us within"
          " %.1f ns of device_total / device_self for the operators (largest %.3f ns); Self CPU time"
          " total %.3f us, profdb's host_self total %d ns"
          % (run, len(cpu), float(TORCH_TOL), float(worst), float(TORCH_TOL), float(dev_worst),
             float(torch_total) / 1000, profdb_total))


def main():
    trace, averages_path, run, kernels_csv, steps_csv, ops_csv = sys.argv[1:7]
    device, host, launches, steps, gpu_annotations = load(trace)
    averages = json.load(open(averages_path))[run]
    check_kernels(run, device, len(steps), read_csv(kernels_csv))
    check_steps(run, device, launches, steps, read_csv(steps_csv))
    check_torch_device(run, read_csv(kernels_csv), averages, gpu_annotations)
    check_ops(run, device, host, launches, averages, read_csv(ops_csv))
    if problems:
        print("%s: %d MISMATCH" % (run, len(problems)))
        sys.exit(1)


main()
