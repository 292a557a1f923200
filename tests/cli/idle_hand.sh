# profdb idle on the hand-made Kineto trace of testdata/analyses (every
# figure worked out in its README): per stream, the longest gaps with the
# next kernel and the host op, the JSON of both valid against
# schemas/idle.schema.json, and the refusals (exit 2).
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db h.db --run kin "$PROFDB_TESTDATA/analyses/trace.json" || exit 1
$PROFDB idle --db h.db --format csv
$PROFDB idle --db h.db --gaps 2 --format csv
$PROFDB idle --db h.db --gaps 10
$PROFDB idle --db h.db --format json >s.json && cat s.json
check_json s.json idle
$PROFDB idle --db h.db --gaps 3 --format json >g.json && cat g.json
check_json g.json idle
$PROFDB idle --db h.db --gaps 0; echo "exit $?"
$PROFDB idle --db h.db --name 'k*'; echo "exit $?"
