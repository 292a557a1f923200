# Acceptance: profdb flops over corpus Kineto traces recorded with shapes
# equals an independent computation over the raw JSON (analyses_ref.py: the
# README formulas written again, Input Dims / Input type, device time of the
# leaf GEMMs from their External id, or through their launch calls where the
# External ids are correlation ids): HTA mi250 ROCm (linked kernels) and HTA
# trace_diff control (190 shapes, 142 with device time linked by launch).
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
for t in amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz trace_diff/control/control.json.gz; do
  rm -f f.db
  echo "${t%%/*}:"
  $PROFDB ingest -q --db f.db --run r "$H/$t" || exit 1
  $PROFDB flops --db f.db --format csv --unit ns >f.csv || exit 1
  python3 "$HERE/analyses_ref.py" flops kineto "$H/$t" f.csv || exit 1
done
