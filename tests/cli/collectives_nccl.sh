# Acceptance with NCCL: profdb collectives over the 2-rank HTA trace_filter
# set (ncclKernel_SendRecv / AllReduce / Broadcast) equals analyses_ref.py,
# which takes kernels named ncclKernel* / ncclDevKernel* / rccl* as
# communication.  Needs ingest to store them with kind 'communication'
# (another branch): until that is merged this case finds no rows and fails.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
$PROFDB ingest -q --db n.db --run f "$H/trace_filter" || exit 1
$PROFDB collectives --db n.db --format csv --unit ns >r.csv || exit 1
$PROFDB collectives --db n.db --format csv --unit ns --by step >s.csv || exit 1
python3 "$HERE/analyses_ref.py" collectives kineto \
  "$H/trace_filter/sampled_rank-0.json.gz,$H/trace_filter/sampled_rank-1.json.gz" r.csv s.csv
