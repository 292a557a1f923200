#!/usr/bin/env python3
"""bench_ref.py - an independent reference for the wall-clock benchmark readers.

usage: bench_ref.py FORMAT INPUT KERNELS.csv SUMMARY.csv TAGS.csv
  FORMAT   pytest | gbench | csv | jsonl
  KERNELS  `profdb kernels --format csv --unit ns` of the one run
  SUMMARY  `profdb sql --format csv "SELECT api, rounds, mean_ns, stddev_ns, min_ns,
            max_ns, median_ns FROM bench_summary ORDER BY api"`
  TAGS     `profdb sql --format csv "SELECT key, value FROM run_tag_all ORDER BY key"`

Reads the benchmark file with the Python standard library only (json with
exact decimals, csv), from the formats' documentation and doc/benchmarks.md "Operator
benchmarks", not from profdb's code:
  pytest   benchmarks[].stats.data: one repeat per value (seconds); no data:
           the summary (mean, stddev, rounds, min, max, median)
  gbench   run_type "iteration" entries: one repeat of run_name each,
           real_time in time_unit; error_occurred entries dropped; an API
           with aggregates only: mean, median, stddev over repetitions
  csv      api, elapsed_us (µs) per row; other columns are tags
  jsonl    the same, one JSON object per line
and compares per API: calls, total, min, max (exact ns), avg, median,
sample stddev (within 0.001 ns), the summaries and the tags.
Prints one "ok" line per check; exits 1 at the first mismatch."""
import csv
import json
import statistics
import sys
from decimal import Decimal, ROUND_HALF_UP

SCALE = {"ns": 0, "us": 3, "ms": 6, "s": 9}


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


def ns(text, unit):
    d = Decimal(str(text)) * (Decimal(10) ** SCALE[unit])
    return int(d.to_integral_value(rounding=ROUND_HALF_UP))


def load_json(path):
    with open(path) as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal)


def read_pytest(path):
    doc = load_json(path)
    reps, summ = {}, {}
    mi, ci = doc.get("machine_info", {}), doc.get("commit_info", {})
    tags = {"host": mi.get("node"), "python_version": mi.get("python_version"),
            "cpu": mi.get("cpu", {}).get("brand_raw"), "commit": ci.get("id"),
            "branch": ci.get("branch")}
    for b in doc["benchmarks"]:
        st = b["stats"]
        if st.get("data"):
            reps.setdefault(b["name"], []).extend(ns(x, "s") for x in st["data"] if x >= 0)
        else:
            summ[b["name"]] = (int(st["rounds"]), ns(st["mean"], "s"), ns(st["stddev"], "s"),
                               ns(st["min"], "s"), ns(st["max"], "s"), ns(st["median"], "s"))
    return reps, summ, {k: v for k, v in tags.items() if v is not None}


def read_gbench(path):
    doc = load_json(path)
    reps, aggs = {}, {}
    c = doc.get("context", {})
    tags = {"host": c.get("host_name"), "executable": c.get("executable"),
            "build_type": c.get("library_build_type"), "gbench_version": c.get("library_version")}
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        t = ns(b["real_time"], b.get("time_unit", "ns"))
        if b.get("run_type") == "aggregate":
            aggs.setdefault(b["run_name"], {})[b["aggregate_name"]] = t
            aggs[b["run_name"]]["rounds"] = int(b["repetitions"])
        else:
            reps.setdefault(b["run_name"], []).append(t)
    summ = {}
    for api, a in aggs.items():
        if api not in reps:
            summ[api] = (a["rounds"], a["mean"], a.get("stddev"), None, None, a.get("median"))
    return reps, summ, {k: v for k, v in tags.items() if v is not None}


def add_row(reps, tags, row):
    for k, v in row.items():
        if k not in ("api", "elapsed_us", "repeat") and v not in (None, ""):
            tags[k] = str(v)
    try:
        t = Decimal(str(row["elapsed_us"]))
    except Exception:
        return
    if t >= 0 and row.get("api"):
        reps.setdefault(row["api"], []).append(ns(t, "us"))


def read_csv(path):
    reps, tags = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            add_row(reps, tags, row)
    return reps, {}, tags


def read_jsonl(path):
    reps, tags = {}, {}
    with open(path) as f:
        for line in f:
            if line.strip():
                add_row(reps, tags, json.loads(line, parse_float=Decimal))
    return reps, {}, tags


def close(a, b, what):
    if abs(Decimal(a) - Decimal(b)) > Decimal("0.001"):
        fail("%s: profdb %s, reference %s" % (what, a, b))


def check_kernels(reps, path):
    with open(path, newline="") as f:
        rows = {r["name"]: r for r in csv.DictReader(f)}
    if set(rows) != set(reps):
        fail("APIs: profdb %s, reference %s" % (sorted(rows), sorted(reps)))
    for api, xs in sorted(reps.items()):
        r = rows[api]
        for col, want in (("calls", len(xs)), ("total_ns", sum(xs)), ("min_ns", min(xs)),
                          ("max_ns", max(xs))):
            if int(r[col]) != want:
                fail("%s %s: profdb %s, reference %s" % (api, col, r[col], want))
        close(r["avg_ns"], Decimal(sum(xs)) / len(xs), api + " avg")
        close(r["median_ns"], Decimal(statistics.median(xs)), api + " median")
        if len(xs) > 1:
            close(r["stddev_ns"], Decimal(statistics.stdev(xs)), api + " stddev")
        print("ok kernels %s: %d repeats, total %d ns" % (api, len(xs), sum(xs)))


def check_summary(summ, path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if [r["api"] for r in rows] != sorted(summ):
        fail("summary APIs: profdb %s, reference %s" % ([r["api"] for r in rows], sorted(summ)))
    cols = ("rounds", "mean_ns", "stddev_ns", "min_ns", "max_ns", "median_ns")
    for r in rows:
        for col, want in zip(cols, summ[r["api"]]):
            got = r[col]
            if want is None and got != "":
                fail("%s %s: profdb %s, reference none" % (r["api"], col, got))
            if want is not None:
                close(got, want, r["api"] + " " + col)
        print("ok summary %s: %s" % (r["api"], ", ".join("%s=%s" % (c, r[c]) for c in cols)))


def check_tags(tags, path):
    with open(path, newline="") as f:
        got = {r["key"]: r["value"] for r in csv.DictReader(f)}
    if got != tags:
        fail("tags: profdb %s, reference %s" % (got, tags))
    print("ok tags: %s" % ", ".join("%s=%s" % kv for kv in sorted(tags.items())))


def main():
    fmt, path, kern, summ_csv, tags_csv = sys.argv[1:6]
    reps, summ, tags = {"pytest": read_pytest, "gbench": read_gbench, "csv": read_csv,
                        "jsonl": read_jsonl}[fmt](path)
    check_kernels(reps, kern)
    check_summary(summ, summ_csv)
    check_tags(tags, tags_csv)


main()
