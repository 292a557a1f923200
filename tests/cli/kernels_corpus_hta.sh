# Acceptance: profdb kernels over the HolisticTraceAnalysis ns_resolution
# trace (5 steps) equals an independent computation over the raw JSON
# (tests/cli/query_ref.py: json with exact decimals + statistics), every
# column, by name and by base name, and --per-step through the launches
T=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
$PROFDB ingest -q --db h.db --run hta "$T" || exit 1
$PROFDB kernels --db h.db --run hta --format csv --unit ns >name.csv || exit 1
$PROFDB kernels --db h.db --run hta --format csv --unit ns --by base-name >base.csv || exit 1
$PROFDB kernels --db h.db --run hta --format csv --unit ns --per-step >step.csv || exit 1
python3 "$HERE/query_ref.py" kineto "$T" name.csv base.csv step.csv
