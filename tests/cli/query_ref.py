#!/usr/bin/env python3
"""query_ref.py - an independent reference for `profdb kernels` over raw files.

usage: query_ref.py ascend  KERNEL_DETAILS.csv  KERNELS.csv BASE.csv
       query_ref.py kineto  TRACE.json[.gz]     KERNELS.csv BASE.csv PER_STEP.csv

Reads the raw profiler file with nothing but the Python standard library
(csv, json with exact decimals, statistics), written from FORMATS.md and the
README definitions, not from profdb's code, and compares every column of
profdb's CSV output (made with --format csv --unit ns) with it:

  calls, total, min, max        exact integers of ns
  avg, median, p90, p99         within 0.001 ns (profdb writes 3 decimals of ns)
  stddev                        sample (n - 1), statistics.stdev, within 0.001 ns; empty for one call
  share_pct                     100 * total / the run's device total, rel. 1e-12
  per_repeat                    total / repeats (steps of the run)
  p90, p99                      statistics.quantiles(method="inclusive"): numpy's linear
  per step (kineto)             a kernel's step is the ProfilerStep#N span holding its
                                launching runtime call (same correlation id); mean and
                                sample stddev of its per-step totals, 0 where absent;
                                max_step the lowest step with the largest total

Base names are recomputed here from the rules in lib/model/basename.c's comment with
regular expressions (a second implementation, not a call into profdb).
Prints one "ok" line per check; exits 1 at the first mismatch."""
import csv
import gzip
import json
import re
import statistics
import sys
from decimal import Decimal
from fractions import Fraction


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


# ---------------------------------------------------------------- base names

DIGIT_OPS = ["Log10", "Atan2", "Expm1", "Relu6", "Exp2", "Log2"]


def cpp_base(s):
    s = re.sub(r" \[clone [^\]]*\]$", "", s).rstrip(" ")
    if s.endswith(" const"):
        s = s[:-6]
    if s.endswith(")"):
        depth, i = 0, len(s)
        while i > 0:
            i -= 1
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    break
        if depth != 0:
            return None
        if i > 0 and (s[i - 1].isalnum() or s[i - 1] in "_>"):
            s = s[:i]
    out, depth, i = [], 0, 0
    while i < len(s):
        if s.startswith("->", i):
            if depth == 0:
                out.append("->")
            i += 2
            continue
        c = s[i]
        if c == "<":
            depth += 1
        elif c == ">":
            if depth == 0:
                return None
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    if depth:
        return None
    s = "".join(out)
    depth, start = 0, 0
    for i, c in enumerate(s):
        if c in "({[":
            depth += 1
        elif c in ")}]" and depth > 0:
            depth -= 1
        elif c == " " and depth == 0 and i + 1 < len(s):
            start = i + 1
    return s[start:] or None


def base_name(s):
    if "::" in s or "<" in s or re.search(r"[A-Za-z0-9_]\(", s):
        b = cpp_base(s)
        if b is not None:
            return b
    b = re.sub(r"(?<=.)(?:[_-][0-9]+)+$", "", s)
    if b != s:
        b = re.sub(r"(?<=.)_+$", "", b)
    m = re.fullmatch(r"([A-Z][A-Za-z0-9]*?)([0-9]+)", b)
    if m and not re.search(r"[A-Za-z]V$", m.group(1)) and not (len(m.group(1)) == 1 and m.group(1) == "V"):
        for e in DIGIT_OPS:
            if b.startswith(e) and re.fullmatch(r"[0-9]*", b[len(e):]):
                return e
        b = m.group(1)
    return b or s


# ---------------------------------------------------------------- statistics

def close(a, b, abs_tol=0.0, rel_tol=0.0):
    return abs(a - b) <= max(abs_tol, rel_tol * abs(b))


def pct(data, p):
    if len(data) == 1:
        return data[0]
    return statistics.quantiles(sorted(data), n=100, method="inclusive")[p - 1]


def check_groups(label, groups, run_total, repeats, out_csv, key):
    rows = list(csv.DictReader(open(out_csv, newline="")))
    got = {r[key]: r for r in rows}
    if len(rows) != len(got) or set(got) != set(groups):
        fail("%s: groups differ: only profdb %s, only reference %s" % (
            label, sorted(set(got) - set(groups))[:5], sorted(set(groups) - set(got))[:5]))
    for name, data in groups.items():
        r = got[name]
        n, total = len(data), sum(data)
        exact = {"calls": n, "total_ns": total, "min_ns": min(data), "max_ns": max(data)}
        for col, want in exact.items():
            if int(r[col]) != want:
                fail("%s %r: %s = %s, reference %s" % (label, name, col, r[col], want))
        approx = {"avg_ns": Fraction(total, n), "median_ns": statistics.median(data),
                  "p90_ns": pct(data, 90), "p99_ns": pct(data, 99),
                  "per_repeat_ns": Fraction(total, repeats)}
        for col, want in approx.items():
            if not close(Fraction(r[col]), Fraction(want), abs_tol=Fraction(1, 1000)):
                fail("%s %r: %s = %s, reference %s" % (label, name, col, r[col], float(want)))
        if n == 1:
            if r["stddev_ns"] != "":
                fail("%s %r: stddev of one call is %s, not empty" % (label, name, r["stddev_ns"]))
        elif not close(float(r["stddev_ns"]), statistics.stdev(data), rel_tol=1e-9, abs_tol=0.001):
            fail("%s %r: stddev %s, reference %r" % (label, name, r["stddev_ns"], statistics.stdev(data)))
        share = 100.0 * total / run_total
        if not close(float(r["share_pct"]), share, rel_tol=1e-12):
            fail("%s %r: share_pct %s, reference %r" % (label, name, r["share_pct"], share))
    print("ok %s: %d groups, %d calls, every column" % (label, len(groups), sum(len(d) for d in groups.values())))


def check_per_step(label, per_step, steps, out_csv):
    rows = list(csv.DictReader(open(out_csv, newline="")))
    got = {r["name"]: r for r in rows}
    if set(got) != set(per_step):
        fail("%s: groups differ" % label)
    for name, by_step in per_step.items():
        r = got[name]
        vals = [by_step.get(s, 0) for s in steps]
        mx = max(vals)
        want = {"steps": sum(1 for s in steps if s in by_step), "mean_ns": Fraction(sum(vals), len(vals)),
                "min_ns": min(vals), "max_ns": mx, "max_step": steps[vals.index(mx)]}
        for col, w in want.items():
            if not close(Fraction(r[col]), Fraction(w), abs_tol=Fraction(1, 1000)):
                fail("%s %r: %s = %s, reference %s" % (label, name, col, r[col], w))
        if not close(float(r["stddev_ns"]), statistics.stdev(vals), rel_tol=1e-9, abs_tol=0.001):
            fail("%s %r: stddev %s, reference %r" % (label, name, r["stddev_ns"], statistics.stdev(vals)))
    print("ok %s: %d kernels over %d steps (%s..%s)" % (label, len(per_step), len(steps), steps[0], steps[-1]))


# ---------------------------------------------------------------- inputs

def ascend(path):
    rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
    kernels = []
    for r in rows:
        dur = Decimal(r["Duration(us)"].strip()) * 1000
        if dur != dur.to_integral_value():
            fail("duration %s is not whole ns" % r["Duration(us)"])
        kernels.append((r["Name"], int(dur)))
    steps = sorted({int(r["Step Id"]) for r in rows if r.get("Step Id", "").strip()})
    return kernels, max(len(steps), 1)


def kineto(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    ns = lambda v: int(Decimal(v) * 1000)
    spans = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith("ProfilerStep#"):
            spans[int(e["name"].split("#")[1])] = (ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]))
    launch = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = ns(e["ts"])
    kernels, per_step = [], {}
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        name, dur = e["name"], ns(e["dur"])
        kernels.append((name, dur))
        t = launch.get(e.get("args", {}).get("correlation"))
        step = next((s for s, (a, b) in sorted(spans.items()) if t is not None and a <= t < b), None)
        if step is not None:
            d = per_step.setdefault(name, {})
            d[step] = d.get(step, 0) + dur
    return kernels, max(len(spans), 1), per_step, sorted({s for d in per_step.values() for s in d})


def group(kernels, key):
    g = {}
    for name, dur in kernels:
        g.setdefault(key(name), []).append(dur)
    return g


def main():
    kind, raw = sys.argv[1], sys.argv[2]
    if kind == "ascend":
        kernels, repeats = ascend(raw)
    else:
        kernels, repeats, per_step, steps = kineto(raw)
    total = sum(d for _, d in kernels)
    print("reference: %d device activities, %d names, total %d ns, repeats %d" % (
        len(kernels), len({n for n, _ in kernels}), total, repeats))
    check_groups("kernels --by name", group(kernels, lambda n: n), total, repeats, sys.argv[3], "name")
    check_groups("kernels --by base-name", group(kernels, base_name), total, repeats, sys.argv[4], "base_name")
    if kind == "kineto":
        check_per_step("kernels --per-step", per_step, steps, sys.argv[5])


if __name__ == "__main__":
    main()
