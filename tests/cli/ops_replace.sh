# ingest --replace of a run with host ops (issue 15: op rows go in a batch
# at a time, ids counted from max(id)).  Replacing keeps the foreign keys on
# (ON DELETE CASCADE), and the run's new ops come after run b's ids.  The
# generated trace has 5001 ops, more than one batch (4096 rows): a
# ProfilerStep#7 of 0 .. 25010 us holding 2500 aten::linear (8 us), each
# holding an aten::addmm (5 us) whose External id has one 2 us kernel.
# Worked out by hand, per op (ns): ProfilerStep#7 dur 25010000, self
# 25010000 - 2500 * 8000 = 5010000, device self 0, total 2500 * 2000 =
# 5000000; aten::linear dur 8000, self 3000, device 0 / 2000; aten::addmm
# dur 5000, self 5000, device 2000 / 2000; all in step 7.  Python (no profdb
# code) checks every row, and that the replaced run's rows equal the first
# ingest's (all columns but id and run_id).
python3 - <<'PY'
import json
N = 2500
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 100, "tid": 1,
       "ts": 0, "dur": 10 * N + 10, "args": {"External id": 1}}]
for i in range(N):
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 100, "tid": 1,
               "ts": 10 + 10 * i, "dur": 8, "args": {"External id": 2 + 2 * i}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 100, "tid": 1,
               "ts": 11 + 10 * i, "dur": 5, "args": {"External id": 3 + 2 * i}})
    ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7,
               "ts": 12 + 10 * i, "dur": 2, "args": {"External id": 3 + 2 * i, "device": 0, "stream": 7}})
json.dump({"traceEvents": ev}, open("t.json", "w"))
PY
$PROFDB ingest -q --db t.db --run a t.json || echo "ingest a failed"
python3 - >first.txt <<'PY'
import sqlite3
db = sqlite3.connect("t.db")
for r in db.execute("SELECT o.* FROM op o JOIN run r ON r.id = o.run_id WHERE r.name = 'a' ORDER BY o.id"):
    print(r[2:])
PY
$PROFDB ingest -q --db t.db --run b t.json || echo "ingest b failed"
$PROFDB ingest -q --db t.db --run a --replace t.json || echo "ingest --replace a failed"
python3 - <<'PY'
import sqlite3
N = 2500
want = sorted([("ProfilerStep#7", 7, 25010000, 5010000, 0, 5000000)]
              + [("aten::linear", 7, 8000, 3000, 0, 2000)] * N
              + [("aten::addmm", 7, 5000, 5000, 2000, 2000)] * N)
db = sqlite3.connect("t.db")
ids = {}
for run in ("a", "b"):
    got = sorted(db.execute(
        "SELECT n.value, o.step, o.dur_ns, o.self_ns, o.device_self_ns, o.device_total_ns FROM op o"
        " JOIN str n ON n.id = o.name_id JOIN run r ON r.id = o.run_id WHERE r.name = ?", (run,)))
    print(run, len(got), "ops:", "ok" if got == want else "MISMATCH, first difference %r" % (
        next((p for p in zip(got, want) if p[0] != p[1]), None),))
    ids[run] = db.execute("SELECT min(o.id), max(o.id), count(*) FROM op o JOIN run r ON r.id = o.run_id"
                          " WHERE r.name = ?", (run,)).fetchone()
print("b ids", ids["b"], "a ids after --replace", ids["a"])
print("a's ids follow b's, contiguous:", ids["a"][0] == ids["b"][1] + 1 and ids["a"][1] - ids["a"][0] + 1 == ids["a"][2])
again = ["%r" % (r[2:],) for r in db.execute(
    "SELECT o.* FROM op o JOIN run r ON r.id = o.run_id WHERE r.name = 'a' ORDER BY o.id")]
first = open("first.txt").read().split("\n")[:-1]
print("rows of a after --replace equal the first ingest's:", again == first, len(first))
print("foreign key violations:", db.execute("PRAGMA foreign_key_check").fetchall())
PY
