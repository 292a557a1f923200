# profdb flops on convolutions: testdata/flops/conv.json, every figure
# worked out by hand in testdata/flops/README.md.  Only the outermost conv
# op of each call is a row (conv2d, not its convolution / _convolution /
# cudnn_convolution); conv2d stride 2 padding 1: 0.001769472 GFLOP,
# 0.1769472 TFLOP/s, 231168 bytes; grouped 'same': 0.000294912, 0.073728,
# 66112; transposed (half): 0.000524288, 0.065536, 16400; conv1d x 2:
# 0.00063488, 0.15872, 51840; aten::convolution: 0.0062208, 0.31104,
# 560896; no "Concrete Inputs", stride 0, channels that do not match:
# empty figures.  The stored "Concrete Inputs" text; JSON valid against
# schemas/flops.schema.json (args null for a GEMM row elsewhere).
. "$HERE/query_setup.sh"
$PROFDB ingest -q --db c.db --run conv "$PROFDB_TESTDATA/flops/conv.json" || exit 1
$PROFDB flops --db c.db --format csv --peak-tflops 1 --peak-gbps 100 |
  python3 -c 'import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for r in csv.reader(sys.stdin):
    w.writerow([r[0], r[1], r[2][:24], r[4]] + r[5:])'
$PROFDB sql --db c.db --format csv "SELECT s.value FROM op o JOIN str n ON n.id = o.name_id
  JOIN str s ON s.id = o.in_concrete_id WHERE n.value = 'aten::conv_transpose2d'"
$PROFDB sql --db c.db --format csv "SELECT count(*) AS no_concrete FROM op o JOIN str n ON n.id = o.name_id
  WHERE n.value LIKE 'aten::conv%' AND o.in_concrete_id IS NULL"
$PROFDB flops --db c.db --name 'aten::conv1d' --format json >f.json && cat f.json
check_json f.json flops
