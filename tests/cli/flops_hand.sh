# profdb flops on the HTA mi250 ROCm trace, worked out by hand:
#   aten::addmm [[128],[5,128],[128,128]] float: M 5, K 128, N 128:
#     2 * 5 * 128 * 128 = 163840 FLOP = 0.00016384 GFLOP; bytes (bias 128 +
#     5*128 + 128*128 + 5*128) * 4 = 71168; intensity 163840 / 71168 = 2.3022;
#     device 24.48 us: 163840 / 24480 ns / 1000 = 0.0066928 TFLOP/s, with
#     --peak-tflops 0.01: 66.93 %; --peak-gbps 10: 71168 / 24480 = 2.907 GB/s = 29.07 %
#   aten::linear [[5,128],[128,128],[128]]: the same work (its child is the addmm)
#   aten::mm [[128,5],[5,128]]: 2 * 128 * 5 * 128 = 163840; bytes
#     (640 + 640 + 16384) * 4 = 70656; device 12.64 us: 0.012962 TFLOP/s
# JSON valid against schemas/flops.schema.json; refusals exit 2.
. "$HERE/query_setup.sh"
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
$PROFDB ingest -q --db f.db --run amd "$H/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz" || exit 1
$PROFDB flops --db f.db --format csv --peak-tflops 0.01 --peak-gbps 10
$PROFDB flops --db f.db --name 'aten::mm' --format json >f.json && cat f.json
check_json f.json flops
$PROFDB flops --db f.db --peak-tflops -1; echo "exit $?"
$PROFDB flops --db f.db --kind kernel; echo "exit $?"
