# Keys written after "traceEvents" (distributedInfo, baseTimeNanoseconds):
# the reader reads the file once, so kernels and launches already stored
# are moved to the real rank and time at the end.  The late file's rows go
# in under the guessed rank 1 (its place in the folder) and move to rank 3;
# the early file really is rank 1, and its rows may not move.  Expected values are computed here
# from the raw JSON (base + ts * 1000), with -j 1 and -j 2.  Each runtime
# call is a launch row and an op row (category runtime): 9 rows.
mkdir -p in
python3 - <<'PY'
import json
def ev(name, cat, ts, dur, tid, **args):
    return {"ph": "X", "name": name, "cat": cat, "ts": ts, "dur": dur, "pid": 1, "tid": tid, "args": args}
late = {"schemaVersion": 1, "traceEvents": [
    ev("ProfilerStep#5", "user_annotation", 100, 100, 1),
    ev("aten::mm", "cpu_op", 110, 20, 1, **{"External id": 7}),
    ev("cudaLaunchKernel", "cuda_runtime", 112, 2, 1, correlation=11, **{"External id": 7}),
    ev("k_late", "kernel", 150, 5, 7, correlation=11, **{"External id": 7}),
  ], "distributedInfo": {"rank": 3, "world_size": 4}, "baseTimeNanoseconds": 1000000000}
early = {"distributedInfo": {"rank": 1}, "baseTimeNanoseconds": 5000, "traceEvents": [
    ev("ProfilerStep#1", "user_annotation", 1, 10, 1),
    ev("cudaLaunchKernelExC", "cuda_runtime", 2, 1, 1, correlation=1),
    ev("k_early", "kernel", 4, 3, 7, correlation=1),
  ]}
json.dump(late, open("in/late.json", "w"))
json.dump(early, open("in/early.json", "w"))
PY
for j in 1 2; do
  $PROFDB ingest -q -j $j --db t$j.db --run r in || echo "ingest -j $j failed"
  python3 - t$j.db $j <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = {}
for f in ("in/late.json", "in/early.json"):
    d = json.load(open(f))
    base, rank = d["baseTimeNanoseconds"], d["distributedInfo"]["rank"]
    for e in d["traceEvents"]:
        t = base + e["ts"] * 1000
        want[(e["cat"], e["name"])] = (rank, t, t + e["dur"] * 1000)
rows = db.execute("SELECT 'kernel', s.value, k.rank, k.start_ns, k.start_ns + k.dur_ns, k.step FROM kernel k"
                  " JOIN str s ON s.id = k.name_id UNION ALL"
                  " SELECT 'cuda_runtime', s.value, l.rank, l.start_ns, l.start_ns + l.dur_ns, NULL"
                  " FROM launch l JOIN str s ON s.id = l.name_id UNION ALL"
                  " SELECT CASE c.value WHEN 'runtime' THEN 'cuda_runtime' ELSE 'cpu_op' END, s.value, o.rank,"
                  " o.start_ns, o.start_ns + o.dur_ns, o.step"
                  " FROM op o JOIN str s ON s.id = o.name_id JOIN str c ON c.id = o.category_id").fetchall()
bad = 0
for cat, name, rank, start, end, step in rows:
    key = (cat, name) if (cat, name) in want else ("user_annotation", name)
    if want.get(key) != (rank, start, end):
        print("-j", sys.argv[2], cat, name, "stored", (rank, start, end), "expected", want.get(key)); bad = 1
steps = db.execute("SELECT rank, step, start_ns, end_ns FROM step ORDER BY step").fetchall()
exp = [(1, 1) + want[("user_annotation", "ProfilerStep#1")][1:], (3, 5) + want[("user_annotation", "ProfilerStep#5")][1:]]
if steps != exp:
    print("-j", sys.argv[2], "steps", steps, "expected", exp); bad = 1
ksteps = dict(db.execute("SELECT s.value, k.step FROM kernel k JOIN str s ON s.id = k.name_id").fetchall())
if ksteps != {"k_late": 5, "k_early": 1}:
    print("-j", sys.argv[2], "kernel steps", ksteps); bad = 1
src = sorted(db.execute("SELECT rank FROM source_file").fetchall())
if src != [(1,), (3,)]:
    print("-j", sys.argv[2], "source ranks", src); bad = 1
print("-j", sys.argv[2], "rows", len(rows), "ok" if not bad else "FAILED")
PY
done
