# A rank without device data in a multi-rank Ascend export (issue 12, item
# 5): rank 1 keeps only profiler_info_1.json, step_trace_time.csv and
# op_statistic.csv; rank 2 only its profiler_info (rank_id 2).  Ingest notes
# each, runs counts 3 ranks and names 1,2 in no_kernel_ranks, and verify
# checks rank 0 (python counts its op_statistic rows: 5 checks each, plus 4
# step_trace_time figures per step) and says rank 1 has no kernel data
# instead of failing every figure against 0.
set -u
L=$PROFDB_TESTDATA/ascend/level1
mkdir -p x/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT x/rank2_ascend_pt/ASCEND_PROFILER_OUTPUT
cp -r "$L/rank0_ascend_pt" x/
cp "$L/rank1_ascend_pt/profiler_info_1.json" x/rank1_ascend_pt/
cp "$L/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv" \
   "$L/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv" x/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/
sed 's/"rank_id": *1/"rank_id": 2/' "$L/rank1_ascend_pt/profiler_info_1.json" >x/rank2_ascend_pt/profiler_info_2.json
$PROFDB ingest --db t.db --run x x | grep "note:"
$PROFDB runs --db t.db --format json | python3 -c '
import json, sys
for r in json.load(sys.stdin): print(r["name"], "ranks", r["ranks"], "no_kernel_ranks", r["no_kernel_ranks"])'
$PROFDB verify --db t.db --run x --format csv >v.csv; echo "verify exit $?"
grep -c ",rank 0 / .*,ok$" v.csv
grep -c ",rank 1 / " v.csv
python3 - "$L/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT" <<'PY'
import csv, sys
ops = list(csv.DictReader(open(sys.argv[1] + "/op_statistic.csv", newline="")))
steps = list(csv.DictReader(open(sys.argv[1] + "/step_trace_time.csv", newline="")))
print(5 * len(ops) + 4 * len(steps), "(python: rank 0 checks)")
PY
$PROFDB verify --db t.db --run x 2>&1 | grep "rank 1 has"
