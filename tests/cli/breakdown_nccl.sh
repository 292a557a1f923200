# Acceptance with NCCL: profdb breakdown over HTA trace_diff control (NCCL
# kernels on their own stream) and the 2-rank trace_filter set equals
# analyses_ref.py, which classes kernels named ncclKernel* / ncclDevKernel* /
# rccl* as communication (the documented rule).  This needs ingest to store
# those kernels with kind 'communication' (another branch): until that is
# merged, this case fails on compute/communication figures.
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
rm -f n.db
$PROFDB ingest -q --db n.db --run c "$H/trace_diff/control/control.json.gz" || exit 1
$PROFDB breakdown --db n.db --format csv --unit ns >b.csv || exit 1
$PROFDB breakdown --db n.db --format csv --unit ns --by rank >br.csv || exit 1
python3 "$HERE/analyses_ref.py" breakdown kineto "$H/trace_diff/control/control.json.gz" b.csv || exit 1
python3 "$HERE/analyses_ref.py" breakdown kineto "$H/trace_diff/control/control.json.gz" br.csv rank || exit 1
rm -f n.db
$PROFDB ingest -q --db n.db --run f "$H/trace_filter" || exit 1
$PROFDB breakdown --db n.db --format csv --unit ns >b.csv || exit 1
F="$H/trace_filter/sampled_rank-0.json.gz,$H/trace_filter/sampled_rank-1.json.gz"
python3 "$HERE/analyses_ref.py" breakdown kineto "$F" b.csv || exit 1
