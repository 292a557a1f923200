# NCCL kernels are communication (doc/definitions.md "Communication"): kernels --by
# kind, --kind communication and steps --kind communication on HTA's
# nccl_parser_config trace (and diff --by kind) equal an independent computation over the raw
# JSON (kind_comm_ref.py), and the kind is the same rule as Ascend hcom_.
T=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz
$PROFDB ingest -q --db n.db --run nccl "$T" || exit 1
$PROFDB kernels --db n.db --by kind --format csv --unit ns >kind.csv || exit 1
$PROFDB kernels --db n.db --kind communication --format csv --unit ns >comm.csv || exit 1
$PROFDB steps --db n.db --kind communication --format csv --unit ns >steps.csv || exit 1
$PROFDB ingest -q --db n.db --run again "$T" || exit 1
$PROFDB diff --db n.db nccl again --by kind --resamples 0 --format csv >diff.csv || exit 1
python3 "$HERE/kind_comm_ref.py" "$T" kind.csv comm.csv steps.csv diff.csv || exit 1
$PROFDB sql --db n.db "SELECT kind, count(*) FROM kernel_v WHERE run = 'nccl' AND name LIKE 'nccl%' GROUP BY kind"
