# Comparability warnings only on a real difference (issue 12 item 12), on
# the Ascend-msinsight sessions: text and db exports of one Level1 session
# (their profiler_info configs differ only in _export_type, where the
# results were written) used to warn "profiler config (level Level1) vs
# profiler config (level Level1)".  The reference (python3, reading the raw
# profiler_info_*.json files) lists the config leaves that differ between
# two sides, leaving out export_type and on_trace_ready (output, not
# measurement) and keys only one side records (unknown there), and the check is that profdb's config warning names exactly
# those keys with each side's values, or that there is none.
set -e
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch
for s in text/level0 text/level1 text/level2 db/level0 db/level1; do
  $PROFDB ingest -q --db a.db --run $(echo $s | tr / -) "$A/$s"
done
for pair in "text-level1 db-level1" "text-level0 db-level0" "text-level0 text-level1" \
            "text-level1 text-level2" "text-level0,text-level1 text-level1"; do
  set -- $pair
  $PROFDB report --db a.db --base $1 --new $2 --format csv --resamples 0 >r.csv 2>r.err
  python3 - "$A" "$1" "$2" r.err <<'PY'
import csv, glob, json, sys
root, base, new, rep = sys.argv[1:]
def leaves(node, path=""):
    for k, v in node.items():
        k = k.lstrip("_")
        if k in ("export_type", "on_trace_ready"):
            continue
        p = "" if not path and k in ("common_config", "experimental_config") else (path + "." if path else "") + k
        if isinstance(v, dict):
            yield from leaves(v, p)
        else:
            yield p, v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
def side(runs):
    facts = set()
    for run in runs.split(","):
        for f in glob.glob("%s/%s/*/profiler_info_*.json" % (root, run.replace("-", "/"))):
            facts |= set(leaves(json.load(open(f))["config"]))
    return facts
a, b = side(base), side(new)
# a key only one side records is unknown on the other, no difference
keys = {k for k, _ in a ^ b} & {k for k, _ in a} & {k for k, _ in b}
def show(s):
    return "; ".join("%s=%s" % kv for kv in sorted(x for x in s if x[0] in keys))
want = "base and new runs differ in profiler level/config: %s vs %s" % (show(a), show(b)) if keys else None
W = "profdb: warning: "  # report csv: the warnings on stderr, the rows data only
got = [l[len(W):].rstrip("\n") for l in open(rep) if l.startswith(W)]
cfg = [w for w in got if "profiler level/config" in w]
print("%s vs %s: %d warnings; config keys that differ: %s; profdb %s" % (
    base, new, len(got), ", ".join(sorted(keys)) or "none",
    "agrees" if cfg == ([want] if want else []) else "DISAGREES: %s / want %s" % (cfg, want)))
for w in got:
    print("  " + w)
PY
done
# Kineto: two traces of 8 x NVIDIA A100-PG509-200 whose deviceProperties
# differ only in totalGlobalMem (42297524224 vs 42505273344 bytes, another
# driver's reservation) used to warn "8 x NVIDIA A100-PG509-200 vs 8 x
# NVIDIA A100-PG509-200"; the device is compared by names and counts, and a
# V100 machine still warns.  The reference counts the names in the raw files.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
$PROFDB ingest -q --db k.db --run alexnet "$H/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"
$PROFDB ingest -q --db k.db --run control "$H/trace_diff/control/control.json.gz"
$PROFDB ingest -q --db k.db --run test "$H/trace_diff/test/test.json.gz"
for pair in "alexnet control" "control test"; do
  set -- $pair
  $PROFDB report --db k.db $1 $2 --format csv --resamples 0 >r.csv 2>r.err
  python3 - r.err "$H/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz" \
    "$H/trace_diff/control/control.json.gz" "$H/trace_diff/test/test.json.gz" $1 $2 <<'PY'
import collections, csv, gzip, json, sys
rep, paths, (base, new) = sys.argv[1], dict(zip(("alexnet", "control", "test"), sys.argv[2:5])), sys.argv[5:7]
def dev(run):
    d = json.load(gzip.open(paths[run], "rt"))["deviceProperties"]
    return collections.Counter(x["name"] for x in d), sorted({x["totalGlobalMem"] for x in d})
(a, ma), (b, mb) = dev(base), dev(new)
W = "profdb: warning: "
got = [l[len(W):].rstrip("\n") for l in open(rep) if l.startswith(W) and "in device" in l]
print("%s vs %s: devices %s / %s, memory %s / %s: device warning expected %s, profdb %s" % (
    base, new, dict(a), dict(b), ma, mb, a != b, "warns" if got else "does not warn"))
for w in got:
    print("  " + w)
PY
done
