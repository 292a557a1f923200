"""name_stats_budget_ref.py - the reference for tests/cli/name_stats_budget.sh,
sharing no code with profdb.

gen OUT: write a kernel_details.csv of 40 kernel names over 3 steps, name i
called 1 + (i * 7) % 23 times a step, durations from a fixed LCG (whole ns,
written as microseconds with 3 decimals), rows of the names interleaved.

check CSV NAMES STEPS: read the CSV back and compare profdb's kernel_name_stat
(NAMES: name, calls, total_ns, min_ns, max_ns, avg_ns, median_ns, stddev_ns,
p90_ns, p99_ns) and kernel_step_stat (STEPS: name, step, calls, total_ns)
with figures computed here: percentiles by h = (n - 1) p / 100 with linear
interpolation between the two closest values, the sample standard deviation
(divisor n - 1, two passes)."""
import csv
import math
import sys


def gen(out):
    x = 2463534242
    rows = []
    for step in (1, 2, 3):
        left = {i: 1 + (i * 7) % 23 for i in range(40)}
        while left:
            for i in sorted(left):
                x = (x * 1103515245 + 12345) % 2**31
                rows.append((step, "kern_%02d" % i, 1000 + (x >> 8) % 900000))
                left[i] -= 1
                if left[i] == 0:
                    del left[i]
    with open(out, "w", newline="") as f:
        f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
        for n, (step, name, dur) in enumerate(rows):
            f.write("%d,%s,K,AI_CORE,%d.000,%d.%03d,0,8\r\n" % (step, name, 1000 + 1000 * n, dur // 1000, dur % 1000))


def pct(v, p):
    h = (len(v) - 1) * p / 100.0
    lo = math.floor(h)
    if lo >= len(v) - 1:
        return float(v[-1])
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo])


def close(a, b):
    return abs(float(a) - b) <= 1e-9 * (1 + abs(b))


def check(path, names_csv, steps_csv):
    durs, steps = {}, {}
    with open(path, newline="") as f:
        r = csv.reader(f)
        h = next(r)
        for row in r:
            name, step = row[h.index("Name")], int(row[h.index("Step Id")])
            us = row[h.index("Duration(us)")]
            ns = int(us.replace(".", ""))  # 3 decimals: whole ns
            durs.setdefault(name, []).append(ns)
            c = steps.setdefault((name, step), [0, 0])
            c[0] += 1
            c[1] += ns
    bad = 0
    got = list(csv.DictReader(open(names_csv, newline="")))
    for g in got:
        v = sorted(durs[g["name"]])
        n = len(v)
        mean = sum(v) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
        want = {"calls": n, "total_ns": sum(v), "min_ns": v[0], "max_ns": v[-1], "avg_ns": mean,
                "median_ns": pct(v, 50), "stddev_ns": sd, "p90_ns": pct(v, 90), "p99_ns": pct(v, 99)}
        for k, w in want.items():
            if not close(g[k], w):
                print("%s %s: profdb %s, reference %r" % (g["name"], k, g[k], w))
                bad += 1
    if sorted(g["name"] for g in got) != sorted(durs):
        print("names differ")
        bad += 1
    gs = list(csv.DictReader(open(steps_csv, newline="")))
    for g in gs:
        w = steps.get((g["name"], int(g["step"])))
        if w is None or [int(g["calls"]), int(g["total_ns"])] != w:
            print("step cell %s %s: profdb %s %s, reference %r" % (g["name"], g["step"], g["calls"], g["total_ns"], w))
            bad += 1
    if len(gs) != len(steps):
        print("step cells: profdb %d, reference %d" % (len(gs), len(steps)))
        bad += 1
    print("%d names, %d kernels, %d step cells: %s" % (len(durs), sum(map(len, durs.values())), len(steps),
                                                     "as the reference" if bad == 0 else "%d differ" % bad))
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    else:
        sys.exit(1 if check(sys.argv[2], sys.argv[3], sys.argv[4]) else 0)
