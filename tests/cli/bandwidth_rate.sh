# Acceptance: a copy's rate is Kineto's own "memory bandwidth (GB/s)" where
# the trace gives it, not bytes over the whole-µs duration (doc/analyses.md
# "bandwidth").  kineto tb_plugin gpu_metrics_input.json: two HtoD copies
# written "dur": 1 (640 B at 0.4651 GB/s, 128 B at 0.0952 GB/s); by hand,
# gbps = 768 / (640 / 0.46511627906976744 + 128 / 0.09523809523809523) ns
#      = 768 / (1376 + 1344) = 0.28235294117647..., max_gbps = 0.46511627906976744
# (bytes / dur would say 0.384 and 0.64).  Then the same check by
# analyses_ref.py on HTA's trace_diff control, whose copies carry the arg.
T=$PROFDB_CORPUS/kineto/tb_plugin/test/gpu_metrics_input.json
$PROFDB ingest -q --db g.db --run g "$T" || exit 1
$PROFDB bandwidth --db g.db --format csv --unit ns --by rank || exit 1
$PROFDB bandwidth --db g.db --format csv --unit ns --by rank >g.csv || exit 1
python3 "$HERE/analyses_ref.py" bandwidth kineto "$T" g.csv rank || exit 1
