# flops on shapes that cannot be true: a negative dim, a dim that is not a
# whole number ("a", 1.5), dims whose products pass int64 (FLOPs or bytes
# of 2^63 or more) give empty figures, never a negative, wrapped or
# fractional one.  The one true shape, mm [2,3] x [3,4] float, worked by
# hand: 2 * 2 * 4 * 3 = 48 FLOP = 4.8e-08 GFLOP, bytes (6 + 12 + 8) * 4 = 104.
python3 - <<'PY'
import json
shapes = [[[2, 3], [3, 4]], [[-2, 3], [3, 4]], [[2, -3], [-3, 4]], [["a", 3], [3, 4]],
          [[1.5, 3], [3, 4]], [[2, 3], [3, None]],
          [[2**40, 2**40], [2**40, 2**40]],            # 2^121 FLOP
          [[2**62, 1], [1, 2]],                        # 2^64 FLOP; elements 2^63 + ...
          [[2**64, 3], [3, 4]],                        # a dim past int64
          [[1e300, 3], [3, 4]]]
ev = []
for i, s in enumerate(shapes):
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10 * i, "dur": 5,
               "args": {"Input Dims": s, "Input type": ["float", "float"]}})
json.dump({"traceEvents": ev}, open("t.json", "w"))
PY
$PROFDB ingest -q --db f.db --run r t.json || exit 1
$PROFDB flops --db f.db --format json >f.json || exit 1
python3 - <<'PY'
import json
for r in sorted(json.load(open("f.json")), key=lambda r: r["shapes"]):
    print(r["shapes"], r["gflop"], r["bytes"], r["intensity"])
PY
