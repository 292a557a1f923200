# profdb memory on the hand-made torch 2.x trace of testdata/memory (its
# README works every value out by hand): Total Allocated (1 MiB allocated
# before the profiler started) gives the peak, not the running sum; rank 1
# and the base time come after traceEvents; an event without Bytes is a
# counted skip.  Per device, per step, the curve and per op, each also
# against memory_ref.py; JSON valid against schemas/memory.schema.json;
# usage errors.
. "$HERE/query_setup.sh"
T=$PROFDB_TESTDATA/memory/trace_totals.json
$PROFDB ingest --db h.db --run hand "$T" | sed "s|$PROFDB_TESTDATA|TESTDATA|" || exit 1
$PROFDB memory --db h.db --format csv
$PROFDB memory --db h.db --by step
$PROFDB memory --db h.db --ops --format md
$PROFDB memory --db h.db --timeline --points 4 --format csv
$PROFDB memory --db h.db --format csv --unit ns >d.csv || exit 1
python3 "$HERE/memory_ref.py" kineto "$T" d.csv || exit 1
$PROFDB memory --db h.db --ops --format csv --unit ns >o.csv || exit 1
python3 "$HERE/memory_ref.py" kineto "$T" o.csv ops || exit 1
for m in "" "--by step" "--timeline" "--ops"; do
  $PROFDB memory --db h.db $m --format json >m.json || exit 1
  check_json m.json memory
done
$PROFDB memory --db h.db --ops --name 'aten::a*' --format csv
$PROFDB memory --db h.db --steps 1 --format csv
$PROFDB memory --db h.db --by rank 2>&1; echo "exit $?"
$PROFDB memory --db h.db --timeline --ops 2>&1; echo "exit $?"
$PROFDB memory --db h.db --name "x*" 2>&1; echo "exit $?"
$PROFDB memory --db h.db --kind kernel 2>&1; echo "exit $?"
$PROFDB memory --db q.db --run overlap; echo "exit $?"
