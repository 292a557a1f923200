#!/usr/bin/env python3
"""verify_ref.py SRC CASE RC [PROFDB_CSV] - the reference for the verify CLI
tests: recompute every check of `profdb verify` from the raw files of SRC
(an *_ascend_pt folder or a folder of them) with Python's csv and decimal
modules, compare with profdb's CSV output (default out.csv) and print one
summary line plus the failed checks.  RC is profdb's exit status.
"""
import csv, glob, os, re, sys
from decimal import Decimal, ROUND_HALF_UP
src, case, rc = sys.argv[1], sys.argv[2], sys.argv[3]
profdb_out = sys.argv[4] if len(sys.argv) > 4 else "out.csv"

def ns(t):  # us text -> ns, beyond-ns digits rounded half up (2023 files have 4 decimals)
    return int((Decimal(t.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))

def union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out

def inter(a, b):
    return sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in a for s2, e2 in b)

def okay(want, got, tol):
    return abs(got - want) <= max(1e-4 * abs(want), tol)

folders = sorted(glob.glob(src + "/*_ascend_pt")) or [src]
want = {}  # (check, key) -> (expected, actual, ok)
for folder in folders:
    m = re.search(r"rank_?(\d+)", os.path.basename(folder))
    rank = int(m.group(1)) if m else 0
    out = folder + "/ASCEND_PROFILER_OUTPUT/"
    # a row shorter than the header (test_rank_0 has one) is skipped by the
    # CSV reader and counted as such: leave it out here too
    rows = list(csv.DictReader(open(out + "kernel_details.csv", newline="")))
    rows = [r for r in rows if None not in r.values()]
    comm = lambda r: r["Accelerator Core"] in ("HCCL", "COMMUNICATION")
    if os.path.exists(out + "op_statistic.csv"):
        groups = {}
        for r in rows:
            if not comm(r):
                groups.setdefault((r["Type"], r["Accelerator Core"]), []).append(ns(r["Duration(us)"]))
        for s in csv.DictReader(open(out + "op_statistic.csv", newline="")):
            d = groups.pop((s["OP Type"], s["Core Type"]), [])
            key = f"rank {rank} / {s['OP Type']} / {s['Core Type']}"
            n = len(d)
            for col, got, tol in (("Count", n, 0), ("Total Time(us)", sum(d) / 1000, 0.0005 * (n + 1)),
                                  ("Min Time(us)", min(d, default=0) / 1000, 0.001),
                                  ("Avg Time(us)", sum(d) / 1000 / n if n else 0, 0.001),
                                  ("Max Time(us)", max(d, default=0) / 1000, 0.001)):
                e = float(s[col])
                want[("op_statistic " + col, key)] = (e, got, okay(e, got, tol))
        for (t, c), d in groups.items():
            want[("op_statistic Count", f"rank {rank} / {t} / {c}")] = (0, len(d), False)
    if os.path.exists(out + "step_trace_time.csv"):
        for s in csv.DictReader(open(out + "step_trace_time.csv", newline="")):
            k = [r for r in rows if not s["Step"] or r.get("Step Id") == s["Step"]]
            iv = lambda sel: [(ns(r["Start Time(us)"]), ns(r["Start Time(us)"]) + ns(r["Duration(us)"])) for r in sel]
            cu, mu = union(iv([r for r in k if not comm(r)])), union(iv([r for r in k if comm(r)]))
            ncomp = sum(1 for r in k if not comm(r))
            comp, com, ovl = sum(e - b for b, e in cu), sum(e - b for b, e in mu), inter(cu, mu)
            key = f"rank {rank} / step {s['Step'] or '(none)'}"
            for col, got, n in (("Computing", comp, ncomp), ("Communication", com, len(k) - ncomp),
                                ("Overlapped", ovl, len(k)), ("Communication(Not Overlapped)", com - ovl, len(k))):
                e = float(s[col])
                want[("step_trace_time " + col, key)] = (e, got / 1000, okay(e, got / 1000, 0.001 * (n + 1)))

def shown(t):  # printed to the ns (0.001 us) of the inputs, no float noise, no "-0"
    return re.fullmatch(r"-?\d+(\.\d{1,3})?", t) is not None and not (t.startswith("-") and float(t) == 0)

got = {(r["check"], r["key"]): r for r in csv.DictReader(open(profdb_out, newline=""))}
bad = []
for k, (e, a, ok) in want.items():
    g = got.get(k)
    if g is None:
        bad.append(f"missing {k}")
    elif abs(float(g["expected"]) - e) > 0.0005 + 1e-9 or abs(float(g["actual"]) - a) > 0.0005 + 1e-9 \
            or (g["ok"] == "ok") != ok:
        bad.append(f"differs {k}: profdb {g['expected']} {g['actual']} {g['ok']}, python {e} {a} {ok}")
    elif not all(shown(g[c]) for c in ("expected", "actual", "diff")) or \
            abs(float(g["diff"]) - (float(g["actual"]) - float(g["expected"]))) > 1e-9:
        bad.append(f"printed {k}: {g['expected']} {g['actual']} {g['diff']}")
bad += [f"extra {k}" for k in got if k not in want]
nfail = sum(1 for v in want.values() if not v[2])
failed = sorted(f"{k[0]} [{k[1]}]" for k, v in want.items() if not v[2])
print(f"{case}: exit {rc}, {len(got)} checks, {nfail} failed, python agrees: {'yes' if not bad else 'NO'}")
for f in failed:
    print(f"  failed: {f}")
for b in bad[:5]:
    print("  " + b)
