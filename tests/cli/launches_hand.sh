# profdb launches on the hand-made Kineto trace of testdata/analyses (every
# figure worked out in its README): per name with the (all) row, per stream
# (queue length) and per step (host_wait / queued / bound); the Ascend run
# beside it has no launch records and is counted in the note; then every
# column against launches_ref.py.
D=$PROFDB_TESTDATA/analyses
$PROFDB ingest -q --db h.db --run kin "$D/trace.json" || exit 1
$PROFDB ingest -q --db h.db --run asc "$D/breakdown_kernel_details.csv" || exit 1
$PROFDB launches --db h.db --run kin --format csv
$PROFDB launches --db h.db --run kin --by stream --format csv
$PROFDB launches --db h.db --run kin --by step --format csv
$PROFDB launches --db h.db --by stream
$PROFDB launches --db h.db --run kin --name 'k*' --unit ns
# the start and end delays of every row against the reference reading the JSON
for b in name stream step; do
  $PROFDB launches --db h.db --run kin --by $b --format csv --unit ns >$b.csv 2>$b.err || exit 1
done
python3 "$HERE/launches_ref.py" "$D/trace.json" name.csv stream.csv step.csv name.err || exit 1
