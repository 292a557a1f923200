# Acceptance: profdb memory on corpus dumps equals memory_ref.py's
# independent computation from the raw files: the torch 1.9 trace of
# tb_plugin's resnet50_num_workers_0 (12 838 [memory] events, Bytes only:
# the running sum; no Addr, so no held bytes) per device and per op, and
# the Ascend memory_record.csv of both Ascend-msinsight test ranks (rank 1
# saved through a spreadsheet: timestamps and MB digits lost).
K=$PROFDB_CORPUS/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
$PROFDB ingest -q --db m.db --run r50 "$K" || exit 1
$PROFDB memory --db m.db --run r50 --format csv
$PROFDB memory --db m.db --run r50 --format csv --unit ns >d.csv || exit 1
python3 "$HERE/memory_ref.py" kineto "$K" d.csv || exit 1
$PROFDB memory --db m.db --run r50 --ops --format csv --unit ns >o.csv || exit 1
python3 "$HERE/memory_ref.py" kineto "$K" o.csv ops || exit 1
A=$PROFDB_CORPUS/Ascend-msinsight/server/src/test/test_data
for r in 0 1; do
  $PROFDB ingest -q --db m.db --run a$r "$A/test_rank_$r" || exit 1
  $PROFDB memory --db m.db --run a$r --format csv
  $PROFDB memory --db m.db --run a$r --format csv --unit ns >a.csv || exit 1
  python3 "$HERE/memory_ref.py" ascend "$A/test_rank_$r" a.csv || exit 1
done
