# --db clickhouse://... prints the same bytes, and exits the same way, as
# the same command on the SQLite file the runs were pushed from: runs,
# kernels (every --by key, the filters, --per-step, --top/--sort), steps,
# summary, ops, diff and report, in every format, against a real
# clickhouse-server.  Runs: testdata/query's trace (twice, with repeats 2
# and 4), the Ascend level1 rank 0 export and HTA's trace_diff control and
# test traces of the corpus, and an Ascend export whose ranks 1 and 2 have
# no kernels (as in ingest_no_kernels.sh: runs names them in
# no_kernel_ranks, from the server's ranks there).  Then profdb sql passes ClickHouse SQL
# through; its answer is checked against sqlite3 over the local file.
. "$HERE/clickhouse_lib.sh"
ch_start 1
C=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db a.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB ingest -q --db a.db --run twice --repeats 4 "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB ingest -q --db a.db --run level1 \
  "$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt" || exit 1
$PROFDB ingest -q --db a.db --run control "$C/control/control.json.gz" || exit 1
$PROFDB ingest -q --db a.db --run test "$C/test/test.json.gz" || exit 1
L=$PROFDB_TESTDATA/ascend/level1
mkdir -p x/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT x/rank2_ascend_pt/ASCEND_PROFILER_OUTPUT
cp -r "$L/rank0_ascend_pt" x/
cp "$L/rank1_ascend_pt/profiler_info_1.json" x/rank1_ascend_pt/
cp "$L/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv" x/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/
sed 's/"rank_id": *1/"rank_id": 2/' "$L/rank1_ascend_pt/profiler_info_1.json" >x/rank2_ascend_pt/profiler_info_2.json
$PROFDB ingest -q --db a.db --run nokernels x 2>/dev/null || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
# same ARGS...: the command on a.db and on the server, compared
n=0
same() {
  $PROFDB "$@" --db a.db >want 2>want.err; ws=$?
  $PROFDB "$@" --db "$URL" >got 2>got.err; gs=$?
  n=$((n + 1))
  if [ $ws = $gs ] && cmp -s want got && cmp -s want.err got.err; then
    echo "same (exit $ws, $(wc -l <want) lines): $*"
  else
    echo "DIFFERENT (exit $ws vs $gs): $*"
    diff want got | head -5
    diff want.err got.err | head -3
  fi
}
# (each command fetches its runs: --run keeps the test short)
for f in table csv json md; do
  same runs --format $f
  same summary --format $f
  same kernels --format $f --run overlap --run level1
  same kernels --format $f --run level1 --by type,core
  same steps --format $f --run overlap --run twice
  same ops --format $f --run level1
done
# Kineto runs' ops: their notes too (the runtime-call note reads launch rows)
same ops --format csv --run control --run test
for f in table json; do
  same kernels --format $f --run control --run test --per-step --top 5
  same diff control test --format $f
done
for by in name base-name type core kind shape rank device stream step; do
  same kernels --format csv --unit ns --by $by --run level1 --run test
done
same kernels --run overlap --steps 2.. --kind kernel --format csv
same kernels --run control --name '*gemm*' --min-total 16us --sort calls --asc
same kernels --run test --rank 1 --by stream,core --steps ..1012 --top 3 --sort median
same kernels --run control --run test --by kind --per-step --sort max_step
# a kernel of one of the run's two steps: the other step counts 0 there
same kernels --run overlap --per-step --name '*float, 64>*' --format csv
same kernels --run overlap --run twice --per-step --name 'Memcpy*' --format csv
same kernels --run nosuch
same kernels --by nosuch --run overlap
same steps --run control --rank 3 --steps 1010..1012
same summary --run twice --run overlap
same diff control test --fail-on-regression
same diff overlap twice --by base-name --threshold 10
for f in md json junit; do
  same report control test --format $f
done
echo "--- sql passes ClickHouse SQL through (checked against sqlite3):"
$PROFDB sql --db "$URL" --format csv "SELECT name, count() AS calls, sum(dur_ns) AS total
  FROM kernel WHERE run_id = (SELECT id FROM run WHERE name = 'level1') GROUP BY name
  ORDER BY name" >got.csv || exit 1
sqlite3 -csv -header a.db "SELECT s.value AS name, count(*) AS calls, sum(k.dur_ns) AS total
  FROM kernel k JOIN str s ON s.id = k.name_id JOIN run r ON r.id = k.run_id
  WHERE r.name = 'level1' GROUP BY s.value ORDER BY s.value" >want.csv
python3 -c 'import csv,sys; a=list(csv.reader(open(sys.argv[1]))); b=list(csv.reader(open(sys.argv[2])))
print("rows:", len(a) - 1, "equal" if a == b else "DIFFERENT")' got.csv want.csv
$PROFDB sql --db "$URL" --format json "SELECT toInt64(2) AS i, 0.5 AS x, NULL AS z, 'a\"b' AS s"
$PROFDB sql --db "$URL" "SELEC 1" 2>&1 | sed "s/:$CH_PORT_1\//:PORT\//"
$PROFDB ingest --db "$URL" "$PROFDB_TESTDATA/query/trace.json" 2>&1
echo "exit $?"
echo "--- runs, summary and kernels (every key and filter, and --per-step) read no launch rows:"
# a pull needs every table: with one gone, only what reads none still
# works; kernels are grouped by the server (lib/clickhouse/ch_groups.c)
ch_query 1 "RENAME TABLE prof.launch TO prof.launch_away" || exit 1
same runs
same summary --format json
same kernels --format json
same kernels --run level1 --name '*Mat*' --top 3 --sort p99
same kernels --run control --run test --per-step --top 5 --format csv
same kernels --run overlap --run twice --per-step --name 'Memcpy*' --format csv
same kernels --run control --by kind,rank --per-step --steps 1010..1012 --format csv
# add_kernel: 5 + 10 us over the two steps, kept by --min-total 12us on
# its sum although each step's part is below it
same kernels --run overlap --per-step --min-total 12us --format csv
for f in table csv json md; do
  same kernels --format $f --run overlap --by kind
  same kernels --format $f --run level1 --run twice --by type,core --wide
done
for by in name base-name type core kind shape rank device stream step; do
  same kernels --format csv --unit ns --by $by --run level1 --run test --run twice
  k2=name; [ $by = name ] && k2=rank
  same kernels --format json --by $by,$k2 --run control --steps 1010..1012 --top 4
done
same kernels --run overlap --steps 2.. --kind kernel --format csv
same kernels --run twice --steps ..1 --by step --format csv
same kernels --run control --name '*gemm*' --min-total 16us --sort calls --asc
same kernels --run control --name '*gemm*' --by rank,stream --sort median --asc
same kernels --run test --rank 1 --by stream,core --steps ..1012 --top 3 --sort median
same kernels --run test --rank 1 --kind kernel --by shape --format csv
# (an empty answer pulls the rows for its notes: tested above)
echo "--- diff and report read no kernel or op rows (lib/clickhouse/ch_compare.c):"
# name, base-name and kind keys sample kernel_step_stat; the server sums
# the host ops per rank and step: with kernel gone, and op a view of the
# four columns that sum reads (a pull of op rows would fail), they work
ch_query 1 "RENAME TABLE prof.kernel TO prof.kernel_away, prof.op TO prof.op_away" || exit 1
ch_query 1 "CREATE VIEW prof.op AS SELECT run_id, rank, step, self_ns FROM prof.op_away" || exit 1
for f in table csv json md; do
  same diff control test --format $f
  same diff overlap twice --format $f --by kind
done
same diff control test --fail-on-regression
same diff control test --fail-on-regression --threshold 90
same diff control test --by base-name --steps 1010..1012 --rank 1 --format csv
same diff control test --name '*gemm*' --kind kernel --format json
same diff overlap twice --by base-name+kind --threshold 10 --fail-on-regression
# keys with type, shape or core: the server's sums per rank, step and key
# column (lib/clickhouse/ch_kgroups.c), still no kernel row
for f in table csv json md; do
  same diff control test --by type --format $f
done
same diff control test --by type+core --format csv --fail-on-regression
same diff level1 level1 --by shape --format json
same diff control test --by type+name --name '*gemm*' --kind kernel --rank 1 --steps 1010..1012 --format csv
same diff overlap twice --by shape+kind --threshold 10 --format md
same diff --base overlap,twice --new control,test --by core+type --format csv
same diff --base overlap,twice --new control,test --format csv
same diff control nosuch
for f in md html json junit csv; do
  same report control test --format $f
done
same report control test --format junit --fail-on-regression
ch_query 1 "DROP TABLE prof.op" || exit 1
ch_query 1 "RENAME TABLE prof.kernel_away TO prof.kernel, prof.op_away TO prof.op" || exit 1
echo "--- steps pulls no kernel rows (lib/clickhouse/ch_steps.c: the server groups them; launch is still away):"
for f in table csv json md; do
  same steps --format $f --run overlap --run twice
  same steps --format $f --run control --run test
done
same steps --run control --rank 3 --steps 1010..1012
same steps --run test --rank 1 --name '*gemm*' --kind kernel --format csv
same steps --run level1 --steps 2.. --format json
same steps --run overlap --name 'nc?l*' --format csv
echo "--- --table, tag keys and steps' empty answers need kernel rows: pulled then"
ch_query 1 "RENAME TABLE prof.launch_away TO prof.launch" || exit 1
same steps --run control --name '*[g]emm*'
same steps --run overlap --steps 40..
same diff control test --table breakdown
same diff control test --by tag:api
echo "--- a run without the stat tables (ingested before they existed): diff pulls its rows"
ch_query 1 "ALTER TABLE prof.run UPDATE name_stats = 0 WHERE name = 'control'" || exit 1
ch_mutations_done 1
same diff control test --format csv --fail-on-regression
same diff control test --by kind --format json
same diff control test --by type+core --format csv
same steps --run nosuch
same diff overlap twice --by type+nosuch
