# Operator <-> kernel links on 2022-2023 Kineto traces whose device events
# carry their correlation id as External id (doc/definitions.md "Operators and their
# kernels"): ops' calls, device_self, device_total and top_kernels equal an
# independent computation over the raw JSON (ops_link_ref.py: kernel ->
# launch by correlation -> innermost operator holding the launch on its
# thread, user annotations passed over).  nccl_data is a current trace
# (External ids are op ids, used as they are): the same rule gives the same
# links there, e.g. the NCCL kernels to record_param_comms, not to the
# nccl:all_reduce annotation inside it.
# param linear_kineto: aten::addmm has 111.245 ms of its own kernels
# (TraceLens: 111.2 ms) and aten::transpose none.
C=$PROFDB_CORPUS
for t in lin:param/et_replay/tests/inputs/linear_kineto.json.gz \
         alex:HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz \
         ctl:HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz \
         tst:HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz \
         nccl:HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz; do
  run=${t%%:*}
  f=$C/${t#*:}
  $PROFDB ingest -q --db o.db --run "$run" "$f" || exit 1
  $PROFDB ops --db o.db --run "$run" --format csv --unit ns >"$run.csv" || exit 1
  echo "$run: $(python3 "$HERE/ops_link_ref.py" "$f" "$run.csv" | tail -1)"
done
$PROFDB ops --db o.db --run lin --name 'aten::addmm' --unit ms --format csv
$PROFDB ops --db o.db --run lin --name 'aten::transpose' --unit ms --format csv
$PROFDB sql --db o.db "SELECT count(k.id) AS kernels_linked_to_transpose FROM op o JOIN kernel k ON k.run_id = o.run_id AND k.rank = o.rank AND k.external_id = o.external_id WHERE o.run_id = (SELECT id FROM run WHERE name = 'lin') AND o.name_id = (SELECT id FROM str WHERE value = 'aten::transpose')"
# aten::conv2d's kernels are launched by aten::cudnn_convolution, 3 levels
# down: device_self 0, device_total 6.333 ms, and a note says why
COLUMNS=120 $PROFDB ops --db o.db --run alex --name 'aten::*conv*' --sort device_total
