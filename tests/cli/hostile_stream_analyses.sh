# The analyses and listings stream their answer (issue 20): launches (by
# name, stream, step), idle (streams, --gaps), breakdown, flops, bandwidth,
# collectives, apis, runs and summary write csv and json in parts of 1 024
# rows, and a table or md past the hold budget (PROFDB_HOLD_BYTES=1 here)
# in two passes.  A generated Kineto trace has 1 101 kernel names (some
# launched several times, on two streams, 1 300 steps, memcpys with bytes) and
# 1 300 aten::mm shape groups, so the csv answers come in several parts.
# Checked: each two-pass table and md is the bytes of the answer held whole
# (same_bytes); the json rows are the csv rows; every csv value, written in
# parts, is recomputed from the raw trace by analyses_ref.py (shares no code
# with profdb), which also checks launches --by name's run quartiles and
# outliers (the ordered scan that keeps only the ranks it needs); idle
# --gaps past 65 536 (every gap sorted by SQL) lists the same rows as the
# gaps kept in memory; runs and summary over 1 101 runs (1 100 cloned) are
# checked by python: names in id order, kernels, device total and elapsed of
# the traced run from the trace.
. "$HERE/hostile_lib.sh"
baseline
T=$WORK/sa.json
python3 - "$T" <<'PY'
import json, sys
ev, corr = [], 0
for i in range(1300):
    ts = 1000 + 92 * i            # host time: one op per step
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 1, "tid": 1,
               "ts": ts, "dur": 91})
    corr += 1
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": ts, "dur": 9,
               "args": {"External id": corr, "Input Dims": [[i % 1300 + 1, 8], [8, 4]],
                        "Input type": ["float", "float"]}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": ts + 1, "dur": 2 + i % 5, "args": {"correlation": corr, "External id": corr}})
    # delays of whole ns, nearly all distinct (the percentiles interpolate);
    # some between the fences p75 + 2 and + 3 IQR, a few far out (outliers);
    # kernels overlap across streams
    delay = 3 + (i * 7919 % 23000) / 1000
    delay = 50.5 if i % 89 == 0 else delay + 400 if i % 97 == 0 else delay
    ev.append({"ph": "X", "cat": "kernel", "name": "kern_%d" % (i % 1100), "pid": 0, "tid": 7 + i % 2,
               "ts": round(ts + 1 + delay, 3), "dur": 20 + i % 11,
               "args": {"correlation": corr, "External id": corr, "device": 0, "stream": 7 + i % 2}})
    if i % 10 == 0:
        corr += 1
        # (called outside the mm op: no op holds the copy)
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1,
                   "ts": ts + 50, "dur": 3, "args": {"correlation": corr}})
        ev.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0,
                   "tid": 9, "ts": ts + 60, "dur": 4 + i % 3,
                   "args": {"correlation": corr, "bytes": 4096 * (1 + i % 4), "device": 0, "stream": 9}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
pd ingest --db "$DB" --run sa "$T" || echo "FAIL ingest sa: $(cat "$WORK/err")"

# two passes (table, md) == whole, for every streamed command
for c in "launches" "launches --by stream" "launches --by step" "idle" "idle --gaps 40" \
         "idle --gaps 70000" "breakdown" "breakdown --by rank" "flops" "bandwidth" "bandwidth --by rank" \
         "collectives" "apis"; do
  n=$(echo "$c" | tr ' ' '_' | tr -d '-')
  same_bytes "stream_$n" $c --db "$DB" --run sa
  same_bytes "stream_${n}_md" $c --db "$DB" --run sa --format md
  same_bytes "stream_${n}_runs" $c --db "$DB" --unit ns
done

# csv in parts and json: python recomputes every value from the trace
an() { # NAME CMD...: csv and json of CMD (streamed), json rows == csv rows
  name=$1
  shift
  PROFDB_HOLD_BYTES=1 pd "$@" --db "$DB" --run sa --format csv --unit ns || echo "FAIL $name: $(cat "$WORK/err")"
  cp "$WORK/out" "$WORK/$name.csv"
  PROFDB_HOLD_BYTES=1 pd "$@" --db "$DB" --run sa --format json --unit ns || echo "FAIL $name json: $(cat "$WORK/err")"
  python3 - "$WORK/$name.csv" "$WORK/out" "$name" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
js = json.load(open(sys.argv[2]))
same = len(rows) == len(js) and all(
    all((str(o[k]) if o[k] is not None else "") == r[k] or
        (isinstance(o[k], float) and r[k] and abs(float(r[k]) - o[k]) <= 1e-9 * abs(o[k])) for k in r)
    for r, o in zip(rows, js))
print(("ok " if same else "FAIL ") + "stream_json_%s (%s rows)" % (sys.argv[3], "many" if len(rows) > 1024 else "few"))
PY
}
an launches_name launches
an launches_stream launches --by stream
an launches_step launches --by step
an idle_streams idle
an idle_gaps idle --gaps 70000
an breakdown breakdown
an flops flops
an bandwidth bandwidth
an bandwidth_rank bandwidth --by rank
R=$HERE/analyses_ref.py
python3 "$HERE/launches_ref.py" "$T" "$WORK/launches_name.csv" "$WORK/launches_stream.csv" \
  "$WORK/launches_step.csv" >"$WORK/ref" && grep -q "ok launches --by name: 1101 async names" "$WORK/ref" &&
  echo "ok stream_launches_values" || { echo "FAIL stream_launches_values"; cat "$WORK/ref" >&2; }
python3 "$R" idle kineto "$T" "$WORK/idle_streams.csv" "$WORK/idle_gaps.csv" >"$WORK/ref" &&
  echo "ok stream_idle_values" || { echo "FAIL stream_idle_values"; cat "$WORK/ref" >&2; }
python3 "$R" breakdown kineto "$T" "$WORK/breakdown.csv" >"$WORK/ref" &&
  echo "ok stream_breakdown_values" || { echo "FAIL stream_breakdown_values"; cat "$WORK/ref" >&2; }
python3 "$R" flops kineto "$T" "$WORK/flops.csv" >"$WORK/ref" && grep -q "ok flops: 1300 " "$WORK/ref" &&
  echo "ok stream_flops_values" || { echo "FAIL stream_flops_values"; cat "$WORK/ref" >&2; }
python3 "$R" bandwidth kineto "$T" "$WORK/bandwidth.csv" >"$WORK/ref" &&
  python3 "$R" bandwidth kineto "$T" "$WORK/bandwidth_rank.csv" rank >>"$WORK/ref" &&
  echo "ok stream_bandwidth_values" || { echo "FAIL stream_bandwidth_values"; cat "$WORK/ref" >&2; }
# the launches' outliers and the gaps' listing are not vacuous
python3 - "$WORK/launches_name.csv" "$WORK/idle_gaps.csv" <<'PY'
import csv, sys
names = list(csv.DictReader(open(sys.argv[1], newline="")))
gaps = list(csv.DictReader(open(sys.argv[2], newline="")))
ok = names[0]["name"] == "(all)" and int(names[0]["outliers"]) > 0 and len(names) == 1102 and len(gaps) > 1024
print(("ok " if ok else "FAIL ") + "stream_nonvacuous")
PY
# --gaps past 65 536 (sorted by SQL) == the gaps kept in memory
pd idle --db "$DB" --run sa --format csv --gaps 70000 && cp "$WORK/out" "$WORK/g1"
n=$(($(wc -l <"$WORK/g1") - 1))
pd idle --db "$DB" --run sa --format csv --gaps "$n" && cp "$WORK/out" "$WORK/g2"
PROFDB_HOLD_BYTES=1 pd idle --db "$DB" --run sa --format csv --gaps 25
head -n 26 "$WORK/g1" | cmp -s - "$WORK/out" && cmp -s "$WORK/g1" "$WORK/g2" && echo "ok stream_gaps_same" ||
  echo "FAIL stream_gaps_same"

# runs and summary over 1 101 runs: csv in two parts
pd sql --write --db "$DB" "INSERT INTO run (name, source_path, format, ingested_at, profdb_version)
  SELECT printf('c%04d', x), 'none', 'kineto', '2026-01-01T00:00:00Z', profdb_version
  FROM run, (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1100) SELECT x FROM n)
  WHERE name = 'sa'" || echo "FAIL clone runs: $(cat "$WORK/err")"
for c in runs summary; do
  same_bytes "stream_$c" $c --db "$DB"
  same_bytes "stream_${c}_md" $c --db "$DB" --format md
  PROFDB_HOLD_BYTES=1 pd $c --db "$DB" --format csv --unit ns && cp "$WORK/out" "$WORK/$c.csv"
  PROFDB_HOLD_BYTES=1 pd $c --db "$DB" --format json --unit ns && cp "$WORK/out" "$WORK/$c.json"
done
python3 - "$WORK" "$T" <<'PY'
import csv, json, sys
from decimal import Decimal
w, trace = sys.argv[1:3]
ns = lambda v: int(Decimal(str(v)) * 1000)
ev = [e for e in json.load(open(trace), parse_float=Decimal)["traceEvents"]
      if e.get("cat") in ("kernel", "gpu_memcpy")]
want_sa = (len(ev), sum(ns(e["dur"]) for e in ev),
           max(ns(e["ts"]) + ns(e["dur"]) for e in ev) - min(ns(e["ts"]) for e in ev))
names = ["good", "sa"] + ["c%04d" % x for x in range(1, 1101)]
for c in ("runs", "summary"):
    rows = list(csv.DictReader(open("%s/%s.csv" % (w, c), newline="")))
    js = json.load(open("%s/%s.json" % (w, c)))
    key = "name" if c == "runs" else "run"
    sa = next(r for r in rows if r[key] == "sa")
    got = (int(sa["kernels"]), int(sa["total_device_ns"]), int(sa["elapsed_ns"]) if c == "summary" else want_sa[2])
    ok = ([r[key] for r in rows] == names and [r[key] for r in js] == names and got == want_sa and
          all(r["kernels"] == "0" for r in rows[2:]))
    print(("ok " if ok else "FAIL ") + "stream_%s_values" % c + ("" if ok else ": %r %r" % (got, want_sa)))
PY
