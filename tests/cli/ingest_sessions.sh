# Separate profiling sessions are never merged into one run (issue 12, item
# 4; doc/inputs.md "Sessions and ranks").  Corpus: Ascend-msinsight text/ holds the
# level0, level1 and level2 sessions (rank 0 in all three); HTA trace_compare
# holds base/ and test/, both rank 1.  Without --split the ingest is refused
# with one line naming two sources of one rank, and the database is
# byte-for-byte unchanged; with --split each session is a run, whose kernel
# count, device total and elapsed span python computes here from the raw
# files (kernel_details.csv rows; Kineto X events of cat kernel, gpu_memcpy,
# gpu_memset; elapsed = the longest per-rank first-start..last-end).
set -u
T=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_compare
$PROFDB ingest -q --db t.db --run keep "$PROFDB_TESTDATA/ascend/level1" || exit 1
before=$(cksum <t.db)
for src in "$T" "$H"; do
  $PROFDB ingest --db t.db "$src" 2>err.txt; echo "merged ingest: exit $?"
  sed "s|$PROFDB_CORPUS|CORPUS|g" err.txt
  [ "$(cksum <t.db)" = "$before" ] && echo "database unchanged"
done
$PROFDB ingest -q --db t.db --split "$T" || echo "split failed"
$PROFDB ingest -q --db t.db --split --run tc "$H/" || echo "split failed"
$PROFDB sql --db t.db --format csv "SELECT r.name, count(k.id) AS kernels, sum(k.dur_ns) AS device_ns,
  (SELECT max(e) FROM (SELECT max(k2.start_ns + k2.dur_ns) - min(k2.start_ns) AS e FROM kernel k2
   WHERE k2.run_id = r.id GROUP BY k2.rank)) AS elapsed_ns
  FROM run r JOIN kernel k ON k.run_id = r.id GROUP BY r.id ORDER BY r.id" >got.csv
python3 - "$T" "$H" >want.csv <<'PY'
import csv, glob, gzip, json, os, sys
from decimal import Decimal, ROUND_HALF_UP
def ns(t):
    return int((Decimal(t.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
print("name,kernels,device_ns,elapsed_ns")
print("keep,382,224119172,")  # testdata/ascend/level1: see ingest_ascend.sh
for level in ("level0", "level1", "level2"):
    n = tot = 0; span = 0
    for f in sorted(glob.glob(f"{sys.argv[1]}/{level}/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv")):
        rows = list(csv.DictReader(open(f, newline="")))
        s = [ns(r["Start Time(us)"]) for r in rows]; d = [ns(r["Duration(us)"]) for r in rows]
        n += len(rows); tot += sum(d)
        span = max(span, max(a + b for a, b in zip(s, d)) - min(s))
    print(f"{level},{n},{tot},{span}")
for side in ("base", "test"):
    ev = json.load(gzip.open(f"{sys.argv[2]}/{side}/{side}.json.gz"))["traceEvents"]
    dev = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    st = [round(e["ts"] * 1000) for e in dev]; du = [round(e["dur"] * 1000) for e in dev]
    print(f"tc/{side},{len(dev)},{sum(du)},{max(a + b for a, b in zip(st, du)) - min(st)}")
PY
# keep's elapsed is not computed above: take profdb's for that row only
sed -i '2s/,$//' want.csv
sed -i '2s/,[0-9]*$//' got.csv
diff want.csv got.csv && echo "split runs agree with python"
cat got.csv
# any two sources of device data for one rank conflict, whatever their
# formats: an Ascend rank 0 folder beside a Kineto trace that says rank 0
mkdir -p mix
cp -r "$PROFDB_TESTDATA/ascend/level1/rank0_ascend_pt" mix/
sed 's/"rank": 3/"rank": 0/' "$PROFDB_TESTDATA/kineto/nested.json" >mix/t.json
$PROFDB ingest --db t.db mix; echo "mixed formats, one rank: exit $?"
# --split commits run by run; when a later session fails, the runs this
# command made are deleted again: the run list is what it was
mkdir -p s/a s/b
cp "$PROFDB_TESTDATA/kineto/nested.json" s/a/t.json
printf '{"traceEvents": [{"ph": "X", "name": "k", "cat": "kernel", "ts": 1, "dur": 2' >s/b/t.json
$PROFDB runs --db t.db --format csv | cut -d, -f2 >runs_before.txt
$PROFDB ingest -q --db t.db --split s 2>/dev/null; echo "split with a broken session: exit $?"
$PROFDB runs --db t.db --format csv | cut -d, -f2 | diff runs_before.txt - && echo "run list unchanged"
