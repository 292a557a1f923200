# profdb collectives with the collective args of NCCL kernels: the hand-made
# testdata/analyses/coll_args.json (README there: all_reduce over a 4-rank
# group 3,000,000 bytes in 150 us: algbw 20, busbw 30 GB/s; all_gather 4,000,000
# bytes in 40 us: 100 and 75; send_recv 8000 bytes in 8 us: 1 and 1; a
# broadcast without args has no group and no bytes).  JSON valid against
# schemas/collectives.schema.json.
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db c.db --run a "$PROFDB_TESTDATA/analyses/coll_args.json" || exit 1
$PROFDB collectives --db c.db --format csv
$PROFDB collectives --db c.db --format json >c.json && cat c.json
check_json c.json collectives
# --replace keeps the foreign keys on (ON DELETE CASCADE): the collective
# args, batched, still go in after their kernels, and the table is the same
$PROFDB ingest -q --db c.db --run a --replace "$PROFDB_TESTDATA/analyses/coll_args.json" || exit 1
$PROFDB collectives --db c.db --format csv
# A hostile message count (2^59 Double elements = 2^62 bytes, twice) is past
# 2^48 elements, no real message: its sizes are left out at ingest (a note
# says so), so the calls have no bytes and no bandwidth, and nothing wraps
# (collectives_absurd.sh has the rest).
cat >big.json <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f64_RING_LL", "pid": 0, "tid": 7, "ts": 10, "dur": 1, "args": {"Collective name": "allreduce", "In msg nelems": 576460752303423488, "Out msg nelems": 576460752303423488, "Group size": 2, "dtype": "Double"}},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f64_RING_LL", "pid": 0, "tid": 7, "ts": 20, "dur": 1, "args": {"Collective name": "allreduce", "In msg nelems": 576460752303423488, "Out msg nelems": 576460752303423488, "Group size": 2, "dtype": "Double"}}
]}
JSON
$PROFDB ingest --db h.db --run h big.json | grep 'note:' | sed 's|^ *||' || exit 1
$PROFDB collectives --db h.db --format csv; echo "exit $?"
