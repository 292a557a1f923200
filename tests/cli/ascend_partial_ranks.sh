# An Ascend export whose rank 1 has no kernel table, only analysis.db
# (issue 32 item 11): its collectives come from CommAnalyzerTime /
# Bandwidth / Matrix, its breakdown from StepTraceTime (with a note), and
# what no file says (steps busy, kernels, memory, total_cpu without host
# ops) is empty, never 0.  Every figure is checked against the files read
# directly (ascend_partial_ranks_ref.py, csv + sqlite3).
T=$PROFDB_TESTDATA/ascend_partial
$PROFDB ingest --db a.db --run partial "$T" | sed "s|$T|T|g" || exit 1
$PROFDB collectives --db a.db --format csv --unit ns >coll.csv || exit 1
$PROFDB collectives --db a.db --by link --rank 1 --format csv --unit ns >links.csv || exit 1
$PROFDB steps --db a.db --format csv --unit ns >steps.csv || exit 1
$PROFDB breakdown --db a.db --format csv --unit ns >breakdown.csv 2>breakdown.err || exit 1
$PROFDB summary --db a.db --format csv --unit ns >summary.csv || exit 1
python3 "$HERE/ascend_partial_ranks_ref.py" "$T" coll.csv links.csv steps.csv breakdown.csv summary.csv || exit 1
cat breakdown.err
$PROFDB steps --db a.db
# the JSON of each, with its empty values, is valid against its schema
S=$HERE/../../schemas
for c in steps breakdown summary; do
  $PROFDB $c --db a.db --format json >$c.json 2>/dev/null || exit 1
  python3 "$HERE/json_schema_check.py" "$S/$c.schema.json" $c.json || exit 1
done
cat breakdown.json summary.json
