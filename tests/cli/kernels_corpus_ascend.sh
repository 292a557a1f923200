# Acceptance: profdb kernels over the Ascend level1 rank 0 export of the
# corpus equals an independent computation over the raw kernel_details.csv
# (tests/cli/query_ref.py: csv + statistics modules, exact decimals), every
# column, grouped by name and by base name
D=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt
$PROFDB ingest -q --db a.db --run level1 "$D" || exit 1
$PROFDB kernels --db a.db --run level1 --format csv --unit ns >name.csv || exit 1
$PROFDB kernels --db a.db --run level1 --format csv --unit ns --by base-name >base.csv || exit 1
python3 "$HERE/query_ref.py" ascend "$D/ASCEND_PROFILER_OUTPUT/kernel_details.csv" name.csv base.csv
