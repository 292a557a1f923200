# profdb idle over 5 000 streams x 10 kernels (a generated trace): every
# stream's figures against idle_streams_ref.py's, which recomputes them
# from the trace (for every 100th stream with the other streams' union
# built from scratch), with the rank's busy time held in memory and (hold
# of 1 interval) kept in SQLite's temporary table.  idle sweeps each rank
# once, well under a second here; the other streams' union merged again
# for every stream took over 30 s of CPU, so 20 s is a hang.
python3 "$HERE/idle_streams_ref.py" gen many.json || exit 1
$PROFDB ingest -q --db m.db --run many many.json || exit 1
timeout 20 $PROFDB idle --db m.db --format csv >idle.csv
echo "idle exit $?"
python3 "$HERE/idle_streams_ref.py" check many.json idle.csv
echo "check exit $?"
PROFDB_IDLE_HOLD=1 timeout 20 $PROFDB idle --db m.db --format csv >spilled.csv
echo "idle (spilled) exit $?"
python3 "$HERE/idle_streams_ref.py" check many.json spilled.csv
echo "check exit $?"
