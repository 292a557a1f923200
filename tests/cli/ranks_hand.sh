# profdb ranks on the hand-made 5-rank Ascend export of testdata/analyses
# (figures worked out in its README): per step, --by rank, a higher
# --threshold that clears the step-3 straggler, JSON valid against
# schemas/ranks.schema.json, and the refusals (exit 2).
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db r.db --run five "$PROFDB_TESTDATA/analyses/ranks" || exit 1
$PROFDB ranks --db r.db --format csv
$PROFDB ranks --db r.db --by rank
$PROFDB ranks --db r.db --steps 3 --threshold 25 --format csv
$PROFDB ranks --db r.db --steps 2 --format json >s.json && cat s.json
check_json s.json ranks
$PROFDB ranks --db r.db --by rank --format json >r.json
check_json r.json ranks
$PROFDB ranks --db r.db --threshold 0; echo "exit $?"
$PROFDB ranks --db r.db --by stream; echo "exit $?"
