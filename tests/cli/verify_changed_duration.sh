# A corpus *_ascend_pt folder whose kernel_details.csv had one row's duration
# changed (Conv2D1: 313.886 -> 413.886 us, the largest Conv2D) no longer
# matches its own op_statistic.csv and step_trace_time.csv: verify must exit 1.
# Which checks fail is decided independently by verify_ref.py from the
# edited raw file: Conv2D's Total, Avg and Max (+100 us; Count and Min keep),
# and Computing (the longer kernel covers the gap after it).  Both the csv
# run's stderr and the table's last line give the tally: 169 checks, 4 failed.
set -u
cp -R "$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt" rank0_ascend_pt
chmod -R u+w rank0_ascend_pt
K=rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
sed '/,Conv2D1,Conv2D,/s/,313\.886,/,413.886,/' "$K" >k.csv && mv k.csv "$K"
echo "rows changed: $(grep -c ',Conv2D1,Conv2D,.*,413\.886,' "$K")"
$PROFDB ingest --db v.db --run changed --quiet rank0_ascend_pt || echo "ingest failed"
$PROFDB verify --db v.db --format csv >out.csv 2>err.txt
rc=$?
python3 "$HERE/verify_ref.py" rank0_ascend_pt changed "$rc"
sed 's/^profdb: verify: //' err.txt
# the table ends with the same tally on stdout, the line a reader looks for
$PROFDB verify --db v.db | tail -1
exit $rc
