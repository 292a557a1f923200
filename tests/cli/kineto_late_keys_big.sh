# Keys after "traceEvents" on a file larger than a batch (store_batch.h:
# 4096 rows): when the real rank and base time are read, part of the late
# file's kernels, launches and ops are in the table (moved by UPDATE) and
# the rest still in the writer's batches (moved there, issue 15).  Both
# must end at the rank and times of the raw JSON (base + ts * 1000), and
# the early file's rows (really rank 1, read beside it with -j 2) must not
# move.  Expected values are computed here from the JSON; self times by
# hand: an op of 5 us holds a call of 2 us (late) or 1 us (early), and the
# late step holds its N ops, not the calls inside them.
mkdir -p in
python3 - <<'PY'
import json
def ev(name, cat, ts, dur, tid, **args):
    return {"ph": "X", "name": name, "cat": cat, "ts": ts, "dur": dur, "pid": 1, "tid": tid, "args": args}
N = 6000
late = [ev("ProfilerStep#5", "user_annotation", 100, 10 * N + 100, 1)]
for i in range(N):
    late.append(ev("op%d" % i, "cpu_op", 110 + 10 * i, 5, 1, **{"External id": i + 1}))
    late.append(ev("launch%d" % i, "cuda_runtime", 111 + 10 * i, 2, 1, correlation=i + 1))
for i in range(N):
    late.append(ev("k%d" % i, "kernel", 150 + 10 * i, 3, 7, correlation=i + 1, **{"External id": i + 1}))
early = [ev("ProfilerStep#1", "user_annotation", 1, 10 * N + 10, 1)]
for i in range(N):
    early.append(ev("eop%d" % i, "cpu_op", 2 + 10 * i, 5, 1, **{"External id": i + 1}))
    early.append(ev("elaunch%d" % i, "cuda_runtime", 3 + 10 * i, 1, 1, correlation=i + 1))
    early.append(ev("ek%d" % i, "kernel", 4 + 10 * i, 3, 7, correlation=i + 1, **{"External id": i + 1}))
json.dump({"schemaVersion": 1, "traceEvents": late, "distributedInfo": {"rank": 3, "world_size": 4},
           "baseTimeNanoseconds": 1000000000}, open("in/late.json", "w"))
json.dump({"distributedInfo": {"rank": 1}, "baseTimeNanoseconds": 5000, "traceEvents": early},
          open("in/early.json", "w"))
PY
for j in 1 2; do
  $PROFDB ingest -q -j $j --db t$j.db --run r in || echo "ingest -j $j failed"
  python3 - t$j.db $j <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
N = 6000
want = {}
for f in ("in/late.json", "in/early.json"):
    d = json.load(open(f))
    base, rank = d["baseTimeNanoseconds"], d["distributedInfo"]["rank"]
    for e in d["traceEvents"]:
        t = base + e["ts"] * 1000
        want[e["name"]] = (rank, t, t + e["dur"] * 1000)
rows = db.execute("SELECT s.value, k.rank, k.start_ns, k.start_ns + k.dur_ns FROM kernel k"
                  " JOIN str s ON s.id = k.name_id UNION ALL"
                  " SELECT s.value, l.rank, l.start_ns, l.start_ns + l.dur_ns"
                  " FROM launch l JOIN str s ON s.id = l.name_id UNION ALL"
                  " SELECT s.value, o.rank, o.start_ns, o.start_ns + o.dur_ns"
                  " FROM op o JOIN str s ON s.id = o.name_id").fetchall()
bad = 0
for name, rank, start, end in rows:
    if want.get(name) != (rank, start, end):
        if bad < 5:
            print("-j", sys.argv[2], name, "stored", (rank, start, end), "expected", want.get(name))
        bad += 1
# a runtime call is a launch row and an op row; the op holding it loses its time
calls = sum(1 for f in ("in/late.json", "in/early.json") for e in json.load(open(f))["traceEvents"]
            if e["cat"] == "cuda_runtime")
if len(rows) != len(want) + calls:
    print("-j", sys.argv[2], "rows", len(rows), "expected", len(want) + calls); bad += 1
self_us = dict(db.execute("SELECT s.value, o.self_ns / 1000 FROM op o JOIN str s ON s.id = o.name_id"
                          " WHERE s.value IN ('op0', 'op5999', 'eop0', 'eop5999', 'ProfilerStep#5', 'launch7')"))
if self_us != {"op0": 3, "op5999": 3, "eop0": 4, "eop5999": 4, "launch7": 2, "ProfilerStep#5": 100 + 10 * N - 5 * N}:
    print("-j", sys.argv[2], "self times (us)", sorted(self_us.items())); bad += 1
per_rank = db.execute("SELECT rank, count(*) FROM kernel GROUP BY rank ORDER BY rank").fetchall()
src = sorted(db.execute("SELECT rank FROM source_file").fetchall())
print("-j", sys.argv[2], "rows", len(rows), "kernels per rank", per_rank, "source ranks", src,
      "ok" if not bad else "FAILED (%d)" % bad)
PY
done
