# profdb push / pull against a real clickhouse-server (clickhouse_lib.sh):
# four runs (an Ascend text export with its op_statistic / step_trace_time,
# two Kineto traces of HTA's trace_diff, one under a name with quotes and
# unicode, and a folder of testdata/bad files that gives skipped rows, a
# note and SQL-looking names) pushed, then pulled into a new database.  Checked independently
# by clickhouse_ref.py (python sqlite3 + HTTP, no profdb code): the server
# holds exactly the local rows of every table, and the pulled database
# holds the same rows as the original, every column (statistics to the
# bit; the conv run's "Concrete Inputs" too, so flops on the pulled run
# counts its first conv2d: 0.001769472 GFLOP, testdata/flops/README.md).  Then verify runs on the pulled Ascend run, and a second push of
# the same content is refused.
. "$HERE/clickhouse_lib.sh"
ch_start 1
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt
ODD="it's \"ünï\" ✓"
$PROFDB ingest -q --db a.db --run level1 "$A" || exit 1
$PROFDB ingest -q --db a.db --run control "$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff/control/control.json.gz" || exit 1
$PROFDB ingest -q --db a.db --run "$ODD" "$PROFDB_TESTDATA/query/trace.json" || exit 1
mkdir mixed
cp "$PROFDB_TESTDATA/bad/negative_zero_dur_kernel_details.csv" mixed/kernel_details.csv
cp "$PROFDB_TESTDATA/bad/sql_names_trace.json" mixed/t.json
$PROFDB ingest -q --db a.db --run mixed mixed || exit 1
# ops with "Concrete Inputs" (op.in_concrete_id, ClickHouse op.in_concrete)
$PROFDB ingest -q --db a.db --run conv "$PROFDB_TESTDATA/flops/conv.json" || exit 1
URL=$(ch_url 1 "" prof)
# INSERT queries the server has run so far
ins() { ch_query 1 "SELECT sumIf(value, event = 'InsertQuery') FROM system.events"; }
i0=$(ins)
$PROFDB push --db a.db --to "$URL" || exit 1
i1=$(ins)
python3 "$HERE/clickhouse_ref.py" counts "http://127.0.0.1:$CH_PORT_1/" prof a.db || exit 1
# A big run's kernels go up in parallel parts (ch_push_rows.c: a slice of
# the run's ids each, own connection, own INSERT), forced here on these
# small runs with 3 parts: 2 more INSERTs for each of the 5 runs, and the
# same rows on the server and pulled.
i2=$(ins)
PROFDB_PUSH_SPLIT_ROWS=1 PROFDB_PUSH_STREAMS=3 $PROFDB push --quiet --db a.db --to "$(ch_url 1 "" parts)" || exit 1
i3=$(ins)
echo "in parts: INSERTs $((i3 - i2)) = $((i1 - i0)) + $((i3 - i2 - (i1 - i0)))"
python3 "$HERE/clickhouse_ref.py" counts "http://127.0.0.1:$CH_PORT_1/" parts a.db >ref.txt || { cat ref.txt; exit 1; }
python3 "$HERE/clickhouse_ref.py" dict "http://127.0.0.1:$CH_PORT_1/" parts a.db >ref.txt || { cat ref.txt; exit 1; }
$PROFDB pull --quiet --db c.db --from "$(ch_url 1 "" parts)" --run level1 --run control --run "$ODD" \
  --run mixed --run conv || exit 1
python3 "$HERE/clickhouse_ref.py" same a.db c.db >ref.txt || { cat ref.txt; exit 1; }
echo "in parts: every table's rows on the server, the dictionary ids 1..n and the pulled rows equal"
$PROFDB pull --db b.db --from "$URL" --run level1 --run control --run "$ODD" \
  --run mixed --run conv || exit 1
python3 "$HERE/clickhouse_ref.py" same a.db b.db || exit 1
$PROFDB flops --db b.db --run conv --name 'aten::conv2d' --format csv |
  python3 -c 'import csv, sys; r = list(csv.DictReader(sys.stdin))[0]; print(r["name"], r["args"], r["gflop"], r["bytes"])'
$PROFDB verify --db b.db --run level1 >/dev/null && echo "verify on the pulled run: ok"
echo "--- the same content again:"
$PROFDB push --db a.db --to "$URL" --run control 2>err
echo "exit $?"
sed "s/:$CH_PORT_1/:PORT/" err
echo "--- pull over an existing run:"
$PROFDB pull --db b.db --from "$URL" --run control 2>&1
$PROFDB pull --quiet --db b.db --from "$URL" --run control --replace && echo "with --replace: ok"
python3 "$HERE/clickhouse_ref.py" same a.db b.db control | grep kernel: || exit 1
