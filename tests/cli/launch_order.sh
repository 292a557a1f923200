# Launch rows go in by correlation within a window of 16 384 per file
# (lib/store/launch_order.c), ids in that order, the same rows.
# 1. testdata/launches/queue_edges.json: its 12 calls are listed with
#    correlations 1-5, 8, 12, 6, 7, 20, 10, 9; stored, they are 1-10, 12,
#    20 in rowid order, each with its own start (by hand from the file).
# 2. A generated trace past the window: 20 000 calls on two threads, the
#    second thread's 2 000 listed after the first's 18 000 though their
#    correlations interleave, and one call with a far correlation listed
#    first.  launch_order.py (a heap of 16 384 in Python, none of profdb's
#    code) says which order comes out; both -j1 and -j2 must store it.
$PROFDB ingest -q --db q.db "$PROFDB_TESTDATA/launches/queue_edges.json" || exit 1
$PROFDB sql --db q.db "SELECT rowid, correlation, start_ns FROM launch ORDER BY rowid" --format csv || exit 1
python3 "$HERE/launch_order.py" gen big.json || exit 1
for j in 1 2; do
  $PROFDB ingest -q -j $j --db b$j.db big.json || exit 1
  $PROFDB sql --db b$j.db "SELECT correlation FROM launch ORDER BY rowid" --format csv >got$j.csv || exit 1
  python3 "$HERE/launch_order.py" check big.json got$j.csv || exit 1
done
