# The edges of the launches scans (one ordered scan per view) on a hand-made
# trace, testdata/launches/queue_edges.json: on stream 7 a kernel ending when
# the next starts, one ending at the launch time of two calls made at the same
# time, a zero-length kernel at its own launch time (the ends come first at
# one time), one ending before its launch call starts (no queue entry, a
# negative delay); streams 9 and 11 with one launch each; a launch of step 1
# whose kernel runs in step 2's span; two launches outside every step (a row
# with an empty step).  Every figure against launches_queue_edges.py (the doc's
# definitions, none of profdb's code), the same bytes past the hold budget.
D=$PROFDB_TESTDATA/launches
$PROFDB ingest -q --db q.db --run q "$D/queue_edges.json" || exit 1
for b in name stream step; do
  $PROFDB launches --db q.db --by $b --format csv --unit ns >$b.csv 2>$b.err || exit 1
  cat $b.csv $b.err
  PROFDB_HOLD_BYTES=1 $PROFDB launches --db q.db --by $b --format csv --unit ns 2>/dev/null | cmp - $b.csv ||
    echo "FAIL --by $b past the hold budget"
done
python3 "$HERE/launches_queue_edges.py" "$D/queue_edges.json" name.csv stream.csv step.csv || exit 1
