# profdb collectives on the hand-made 5-rank export of testdata/analyses:
# one allReduce per rank and step (README: step 2 totals 25, 24, 23, 22, 5:
# skew 20, rank 4 waited on; step 3 10, 10, 10, 10, 8: skew 2; step 1 all 20:
# skew 0, rank 0 by the tie rule); JSON valid against
# schemas/collectives.schema.json; a kind filter and a bad --by are refused.
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db r.db --run five "$PROFDB_TESTDATA/analyses/ranks" || exit 1
$PROFDB collectives --db r.db --format csv
$PROFDB collectives --db r.db --by step
$PROFDB collectives --db r.db --by step --format json >s.json && cat s.json
check_json s.json collectives
$PROFDB collectives --db r.db --rank 4 --format json >r.json && cat r.json
check_json r.json collectives
$PROFDB collectives --db r.db --kind kernel; echo "exit $?"
$PROFDB collectives --db r.db --by group; echo "exit $?"
