# bench_workflow_ref.py DIR INGEST APIS_CSV REPORT_MD DIFF_CSV DIFF_TXT PROF_TXT
# An independent reading of the benchmark files (the csv, json-lines and
# pytest-benchmark json in DIR) that checks what bench_workflow.sh printed:
# the ingest figures, the apis rows, the md report's numbers and sample
# counts, the diff's sample counts, and the words (no kernel words, no
# empty whole-run table, no "(not recorded)" comparison).
import csv, json, re, statistics, sys

d, ingest, apis_csv, md, diff_csv, diff_txt, prof_txt = sys.argv[1:]
ok = True

def check(what, cond):
    global ok
    ok &= bool(cond)
    print("%s: %s" % (what, "ok" if cond else "WRONG"))

def rows_csv(path):
    return [(r["api"], float(r["elapsed_us"])) for r in csv.DictReader(open(path))]

def rows_jsonl(path):
    return [(o["api"], float(o["elapsed_us"])) for o in map(json.loads, filter(str.strip, open(path)))]

def rows_pytest(path):
    out = []
    for b in json.load(open(path))["benchmarks"]:
        for v in b["stats"].get("data") or []:
            out.append((b["name"], v * 1e6))
    return out

files = {
    "cpu": rows_csv(d + "/cpu_ops.csv"),
    "npu": rows_jsonl(d + "/npu_ops.jsonl"),
    "cuda": rows_pytest(d + "/pytest_benchmark.json"),
}
napis = {"cpu": 3, "npu": 3, "cuda": len(json.load(open(d + "/pytest_benchmark.json"))["benchmarks"])}

# ingest: "N read = N repeats", then apis=, repeats=, elapsed_us=
text = open(ingest).read()
for run, rows in files.items():
    m = re.search(r"ingested run '%s'.*?\n(?:.*\n)*?  apis=(\d+), repeats=(\d+), elapsed_us=([\d.]+)" % run, text)
    check("ingest %s: apis=%d repeats=%d elapsed_us=%.3f" % (run, napis[run], len(rows), sum(v for _, v in rows)),
          m and int(m.group(1)) == napis[run] and int(m.group(2)) == len(rows)
          and abs(float(m.group(3)) - sum(v for _, v in rows)) < 5e-4)
check("ingest speaks of repeats, not kernels or device time",
      "kernels" not in text and "total_device" not in text and text.count(" repeats + 0 skipped") == 3)

# apis: per run and API, repeats and the mean per repeat (ns)
got = {(r["run"], r["api"]): r for r in csv.DictReader(open(apis_csv))}
for run, rows in files.items():
    for api in sorted({a for a, _ in rows}):
        x = [v for a, v in rows if a == api]
        r = got.get((run, api))
        check("apis %s %s: %d repeats, per_repeat %.3f us" % (run, api, len(x), statistics.mean(x)),
              r and int(r["repeats"]) == len(x) and abs(float(r["per_repeat_ns"]) / 1000 - statistics.mean(x)) < 5e-4)

# md report cpu -> npu: per-API means, sample counts, words
t = open(md).read()
cpu, npu = files["cpu"], files["npu"]
apis = sorted({a for a, _ in cpu} | {a for a, _ in npu})
nb = sorted(len([v for a, v in cpu if a == api]) for api in apis if any(a == api for a, _ in cpu))
nn = sorted(len([v for a, v in npu if a == api]) for api in apis if any(a == api for a, _ in npu))
rng = lambda v: str(v[0]) if v[0] == v[-1] else "%d-%d" % (v[0], v[-1])
check("md: %d APIs by tag:api" % len(apis), "(%d APIs by tag:api)" % len(apis) in t)
check("md: samples are per-repeat times, %s base and %s new per API" % (rng(nb), rng(nn)),
      "samples are per-repeat times, %s base and %s new per API;" % (rng(nb), rng(nn)) in t)
for line in t.splitlines():
    m = re.match(r"\| `([^`]*)` \| ([\d.]*) \| ([\d.]*) \|", line)
    if m:
        api = m.group(1)
        b = [v for a, v in cpu if a == api]
        n = [v for a, v in npu if a == api]
        want = ("%.3f" % statistics.mean(b) if b else "", "%.3f" % statistics.mean(n) if n else "")
        check("md row %s: base %s new %s" % (api, want[0] or "-", want[1] or "-"), (m.group(2), m.group(3)) == want)
check("md: no whole-run table, no kernel words, no 1000 samples, no per-step totals",
      "whole run" not in t and "kernel" not in t and "1000 samples" not in t and "per-step" not in t)

# diff csv: n_base / n_new are the repeat counts
for r in csv.DictReader(open(diff_csv)):
    api = r["tag:api"]
    want = (len([v for a, v in cpu if a == api]), len([v for a, v in npu if a == api]))
    check("diff %s: n_base %d, n_new %d" % (api, *want), (int(r["n_base"]), int(r["n_new"])) == want)
for name, path in (("cuda", diff_txt), ("profiled", prof_txt)):
    t = open(path).read()
    check("diff cpu -> %s: one table (no empty whole-run one), no '(not recorded)'" % name,
          "(no rows)" not in t and "figure" not in t and "not recorded" not in t)
sys.exit(0 if ok else 1)
