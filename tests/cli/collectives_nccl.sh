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
# Message size, process group and bandwidth: the HTA nccl_data trace, whose
# NCCL kernels carry "Collective name", "In/Out msg nelems", "dtype", "Group
# size" and "Process Group Name/Description"; analyses_ref.py reads them from
# the raw trace and computes bytes, algbw and busbw by the README formulas.
$PROFDB ingest -q --db d.db --run d "$H/nccl_parser_config/nccl_data.json.gz" || exit 1
$PROFDB collectives --db d.db --format csv --unit ns >r.csv || exit 1
$PROFDB collectives --db d.db --format csv --unit ns --by step >s.csv || exit 1
python3 "$HERE/analyses_ref.py" collectives kineto "$H/nccl_parser_config/nccl_data.json.gz" r.csv s.csv
