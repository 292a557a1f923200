#!/usr/bin/env python3
"""bench_diff_ref.py - an independent reference for `profdb diff --by tag:api`.

usage: bench_diff_ref.py CPU.csv NPU.jsonl NPU_SUMMARY.json DIFF.csv

Reads the three benchmark files with the standard library only and decides
each API as doc/benchmarks.md "Operator benchmarks" and `profdb diff --help` define it:
samples are the timed repeats of an API; with summary statistics on a side,
both sides become count, mean and sample variance and Welch's t is taken
from those (Welch-Satterthwaite df, the t distribution integrated here with
Simpson's rule); otherwise Mann-Whitney U, exact (all rank splits
enumerated) when there are no ties.  A change is a regression/improvement
when |change| > 5% and p < 0.01 with 3 or more samples a side; an API on one
side only is new or gone.  DIFF.csv is `profdb diff --format csv --unit ns`.
Prints one "ok" line per API; exits 1 at the first mismatch."""
import csv
import itertools
import json
import math
import sys
from decimal import Decimal


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


def t_sf2(t, df, n=20000):
    """Two-sided p of Student's t: 1 - 2 * integral of the density on [0, |t|]."""
    t = abs(t)
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    h = t / n
    s = f(0) + f(t) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    return max(0.0, 1 - 2 * s * h / 3)


def mwu_exact(x, y):
    allv = sorted(x + y)
    rank = {v: i + 1 for i, v in enumerate(allv)}
    if len(set(allv)) != len(allv):
        return None
    n, m = len(x), len(y)
    u = sum(rank[v] for v in x) - n * (n + 1) / 2
    mean = n * m / 2
    dev = abs(u - mean)
    count = total = 0
    for comb in itertools.combinations(range(1, n + m + 1), n):
        total += 1
        if abs(sum(comb) - n * (n + 1) / 2 - mean) >= dev - 1e-9:
            count += 1
    return count / total


def mean_var(xs):
    m = sum(xs) / len(xs)
    return len(xs), m, sum((v - m) ** 2 for v in xs) / (len(xs) - 1)


def main():
    cpu, npu, summ, got = sys.argv[1:5]
    base, new, new_sum = {}, {}, {}
    for r in csv.DictReader(open(cpu)):
        base.setdefault(r["api"], []).append(float(Decimal(r["elapsed_us"]) * 1000))
    for line in open(npu):
        r = json.loads(line)
        new.setdefault(r["api"], []).append(float(Decimal(str(r["elapsed_us"])) * 1000))
    for b in json.load(open(summ), parse_float=Decimal)["benchmarks"]:
        st = b["stats"]
        new_sum[b["name"]] = (int(st["rounds"]), float(st["mean"] * 10**9), float(st["stddev"] * 10**9) ** 2)
    rows = {r["tag:api"]: r for r in csv.DictReader(open(got))}
    apis = sorted(set(base) | set(new) | set(new_sum))
    if sorted(rows) != apis:
        fail("APIs: profdb %s, reference %s" % (sorted(rows), apis))
    for api in apis:
        r = rows[api]
        if api not in base or (api not in new and api not in new_sum):
            want = "gone" if api in base else "new"
            if r["verdict"] != want:
                fail("%s: verdict %s, reference %s" % (api, r["verdict"], want))
            print("ok %s: %s" % (api, want))
            continue
        if api in new_sum:
            n0, m0, v0 = mean_var(base[api])
            n1, m1, v1 = new_sum[api]
            a, b = v0 / n0, v1 / n1
            t = (m1 - m0) / math.sqrt(a + b)
            df = (a + b) ** 2 / (a * a / (n0 - 1) + b * b / (n1 - 1))
            p = t_sf2(t, df)
        else:
            n0, m0, _ = mean_var(base[api])
            n1, m1, _ = mean_var(new[api])
            p = mwu_exact(base[api], new[api])
        change = (m1 - m0) / m0
        if abs(change) <= 0.05:
            want = "unchanged"
        elif n0 >= 3 and n1 >= 3 and p is not None and p < 0.01:
            want = "regression" if change > 0 else "improvement"
        else:
            want = "inconclusive"
        for col, v in (("base_ns", m0), ("new_ns", m1)):
            if abs(float(r[col]) - v) > 0.001:
                fail("%s %s: profdb %s, reference %s" % (api, col, r[col], v))
        if (int(r["n_base"]), int(r["n_new"])) != (n0, n1):
            fail("%s n: profdb %s/%s, reference %d/%d" % (api, r["n_base"], r["n_new"], n0, n1))
        if p is not None and abs(float(r["p"]) - p) > 1e-6 * max(p, 1e-3):
            fail("%s p: profdb %s, reference %.9g" % (api, r["p"], p))
        if r["verdict"] != want:
            fail("%s: verdict %s, reference %s" % (api, r["verdict"], want))
        print("ok %s: %s, base %.3f us, new %.3f us, p %.3g (%d/%d samples)"
              % (api, want, m0 / 1000, m1 / 1000, p if p is not None else float("nan"), n0, n1))


main()
