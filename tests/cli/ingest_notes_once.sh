# The ingest summary says a note once (issue 35, item 6): three rank files
# of one session whose External ids are correlation ids (the HTA
# trace_compare base trace, given ranks 0-2 here) make one line naming
# the files' count and the first of them, not three lines.  A note of one
# file keeps its own line (the k2 run of cli-ingest_counts).
set -u
B=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_compare/base/base.json.gz
mkdir ranks
python3 - "$B" <<'PY'
import gzip, json, sys
trace = json.load(gzip.open(sys.argv[1]))
for rank in range(3):
    trace.setdefault("distributedInfo", {})["rank"] = rank
    json.dump(trace, open(f"ranks/rank{rank}.json", "w"))
PY
$PROFDB ingest --db t.db --run r ranks >out.txt || echo "ingest failed"
grep "note:" out.txt
echo "note lines: $(grep -c "note:" out.txt), file lines: $(grep -c '^  ranks/rank[0-2].json \[kineto_trace' out.txt)"
