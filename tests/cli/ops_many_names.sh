# profdb ops over a generated trace of 3 000 distinct operator names (the
# top-kernel lookup was quadratic in them): every row's calls, host and
# device totals and top_kernels checked against the same sums made in
# Python from the events written, not from profdb's output.
python3 - <<'PY' || exit 1
import json, random
random.seed(20)
ev, ext = [], 0
want = {}                       # name -> [calls, host_total, {kernel: ns}]
ts = 1000
for i in range(3000):
    name = "op_%04d" % i
    for call in range(1 + i % 3):
        ext += 1
        dur = 5 + (i * 7 + call) % 40
        ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur,
                   "args": {"External id": ext}})
        w = want.setdefault(name, [0, 0, {}])
        w[0] += 1
        w[1] += dur * 1000
        for k in range(i % 5):  # 0..4 kernels of the op's own pool
            kn = "kern_%d_%d" % (i % 997, k)
            kd = 1 + random.randrange(30)
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": ts + 1, "dur": 1, "args": {"correlation": ext * 10 + k, "External id": ext}})
            ev.append({"ph": "X", "cat": "kernel", "name": kn, "pid": 0, "tid": 7, "ts": ts + 2,
                       "dur": kd, "args": {"correlation": ext * 10 + k, "External id": ext,
                                           "device": 0, "stream": 7}})
            w[2][kn] = w[2].get(kn, 0) + kd * 1000
        ts += 100
json.dump({"traceEvents": ev}, open("many.json", "w"))
json.dump({n: [w[0], w[1], w[2]] for n, w in want.items()}, open("want.json", "w"))
PY
$PROFDB ingest -q --db m.db --run m many.json || exit 1
# the operators only (cudaLaunchKernel is a row of its own), by host_total:
# an op's host_self is less the launch calls it holds
$PROFDB ops --db m.db --name 'op_*' --sort host_total --format csv --unit ns >ops.csv || exit 1
$PROFDB ops --db m.db --name 'op_*' --sort host_total --format json >ops.json 2>/dev/null || exit 1
python3 - <<'PY' || exit 1
import csv, json
from decimal import Decimal, ROUND_HALF_UP
want = json.load(open("want.json"))
rows = list(csv.DictReader(open("ops.csv")))
assert len(rows) == len(want) == 3000, len(rows)
# SQLite's printf('%.1f') rounds the double's exact value half up (31.25
# -> 31.3), Python's % half to even: Decimal rounds as SQLite does
def pct(x):
    return str(Decimal(x).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
def top3(ks):
    tot = sum(ks.values())
    best = sorted(ks.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return "; ".join("%s (%s%%)" % (k, pct(100.0 * v / tot)) for k, v in best)
linked = 0
for r in rows:
    calls, host, ks = want[r["name"]]
    dev = sum(ks.values())
    assert int(r["calls"]) == calls, r
    assert int(r["host_total_ns"]) == host, r
    assert (int(r["device_self_ns"]) if r["device_self_ns"] else 0) == dev, r
    assert r["top_kernels"] == top3(ks), (r["top_kernels"], top3(ks))
    linked += dev > 0
# the order: host_total descending, then name
order = sorted(want, key=lambda n: (-want[n][1], -want[n][1], n))
assert [r["name"] for r in rows] == order
# json: top_kernels as objects, the same three with exact microseconds
for r in json.load(open("ops.json")):
    ks = want[r["name"]][2]
    best = sorted(ks.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    assert [(t["name"], t["total_us"]) for t in r["top_kernels"]] == [(k, v / 1000) for k, v in best], r
print("ops rows:", len(rows), "with linked kernels:", linked)
print("first:", rows[0]["name"], rows[0]["calls"], rows[0]["host_total_ns"], rows[0]["top_kernels"])
print("last:", rows[-1]["name"], rows[-1]["calls"], rows[-1]["host_total_ns"], rows[-1]["top_kernels"])
PY
