# profdb bandwidth on the hand-made trace of testdata/analyses: step 1 one
# HtoD of 1000 bytes in 10 us = 0.1 GB/s (1000 B / 10000 ns); step 2 a DtoH
# of 2000 bytes in 10 us = 0.2 GB/s and a memset of 500 bytes in 5 us =
# 0.1 GB/s; --by rank sums them per direction.  JSON valid against
# schemas/bandwidth.schema.json; a kind filter is refused.
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db h.db --run kin "$PROFDB_TESTDATA/analyses/trace.json" || exit 1
$PROFDB bandwidth --db h.db --format csv
$PROFDB bandwidth --db h.db --by rank
$PROFDB bandwidth --db h.db --format json >b.json && cat b.json
check_json b.json bandwidth
$PROFDB bandwidth --db h.db --by rank --format json >r.json
check_json r.json bandwidth
$PROFDB bandwidth --db h.db --kind memcpy; echo "exit $?"
