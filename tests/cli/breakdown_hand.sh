# profdb breakdown on the hand-made inputs of testdata/analyses (every figure
# worked out on paper in its README): an Ascend kernel_details.csv with
# communication overlapping compute, and a Kineto trace with memcpy/memset on
# a second stream under and outside the kernels; per step and --by rank.
D=$PROFDB_TESTDATA/analyses
$PROFDB ingest -q --db h.db --run asc "$D/breakdown_kernel_details.csv" || exit 1
$PROFDB ingest -q --db h.db --run kin "$D/trace.json" || exit 1
$PROFDB breakdown --db h.db --format csv
$PROFDB breakdown --db h.db --format csv --by rank
$PROFDB breakdown --db h.db --run asc --steps 2 --format csv --unit ns
$PROFDB breakdown --db h.db --run kin
