# diff's per-step rows held in memory (lib/compare/compare_rows.c) and, over
# --db clickhouse://, read from the server without the local snapshot
# (lib/clickhouse/ch_compare.c): the same bytes as the SQL cursor gives
# (PROFDB_DIFF_ROWS=1 puts every run over the budget, which reads them the
# way it did before, and on a snapshot copies kernel_step_stat in;
# PROFDB_DIFF_BYTES=100000 a byte budget some runs fit and others pass), on the
# file and on the server, for runs of two ranks (HTA trace_filter: rows of
# one key and step on both ranks are summed), of many steps (trace_diff)
# and with kernels outside every step (testdata/query), for the keys and
# filters the loader handles itself.  Then the figures against sqlite3:
# a key's base_calls is its calls over the run's repeats.
. "$HERE/clickhouse_lib.sh"
ch_start 1
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data
$PROFDB ingest -q --db a.db --run f "$H/trace_filter" || exit 1
# (another repeat count: push refuses the same content twice)
$PROFDB ingest -q --db a.db --run g --repeats 3 "$H/trace_filter" || exit 1
$PROFDB ingest -q --db a.db --run control "$H/trace_diff/control/control.json.gz" || exit 1
$PROFDB ingest -q --db a.db --run test "$H/trace_diff/test/test.json.gz" || exit 1
$PROFDB ingest -q --db a.db --run overlap "$PROFDB_TESTDATA/query/trace.json" || exit 1
$PROFDB ingest -q --db a.db --run twice --repeats 4 "$PROFDB_TESTDATA/query/trace.json" || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
bad=0
# same ARGS...: held and SQL cursor on the file, and held and copied on the server, alike
same() {
  PROFDB_DIFF_ROWS=1 $PROFDB diff --db a.db "$@" >want 2>want.err; ws=$?
  for v in "a.db" "$URL" "1 $URL" "2 a.db" "2 $URL"; do
    if [ "${v%% *}" = 1 ]; then
      PROFDB_DIFF_ROWS=1 $PROFDB diff --db "${v#1 }" "$@" >got 2>got.err; gs=$?
    elif [ "${v%% *}" = 2 ]; then
      # a byte budget the first run's rows fit and later ones pass part-way
      PROFDB_DIFF_BYTES=100000 $PROFDB diff --db "${v#2 }" "$@" >got 2>got.err; gs=$?
    else
      $PROFDB diff --db "$v" "$@" >got 2>got.err; gs=$?
    fi
    if [ $ws != $gs ] || ! cmp -s want got || ! cmp -s want.err got.err; then
      echo "DIFFERENT (exit $ws vs $gs, --db $v): $*"; diff want got | head -5; bad=1
    fi
  done
  echo "same (exit $ws, $(wc -l <want) lines): $*"
}
for f in table csv json md; do
  same f g --format $f
  same control test --format $f
done
same f g --by kind --format csv
same f g --by base-name+kind --rank 1 --format csv
same control test --by kind+name --steps 1010..1012 --format json
same control test --name '*gemm*' --kind kernel --format csv
same control test --name '[a-m]*' --format csv --threshold 0
same overlap twice --format csv --by base-name
same overlap twice --format json --name 'nosuch*'
same --base overlap,twice --new control,test --format csv
# six runs: more than the threads that fetch them from the server (4)
same --base f,overlap,twice --new g,control,test --format csv
# a server that refuses a run's rows half-way through the parallel fetch
# (user capped: answers of at most 600 rows; the dictionaries of control
# and test fit, their per-step rows do not): one line, exit 1, no output
for t in kernel_step_stat_ids kernel_str; do
  echo "control, test: $t $(ch_query 1 "SELECT count() FROM prof.$t WHERE run_id IN (SELECT id FROM prof.run WHERE name IN ('control', 'test')) GROUP BY run_id ORDER BY count()" | tr '\n' ' ')rows"
done
$PROFDB diff --db "$(ch_url 1 capped@ prof)" control test >got 2>got.err
echo "capped: exit $?, $(wc -c <got) bytes out, $(wc -l <got.err) line: $(sed -e "s/:$CH_PORT_1\//:PORT\//" -e 's/current rows: [^(]*(/current rows: N (/' got.err)"
# base_calls and n_base of f against g by name, from sqlite3: sum(calls) /
# the run's repeats (its 2 steps), and those steps
$PROFDB diff --db "$URL" f g --format csv | python3 -c '
import csv, sqlite3, sys
db = sqlite3.connect("a.db")
calls = dict(db.execute("SELECT s.value, sum(k.calls) FROM kernel_step_stat k JOIN str s ON s.id = k.name_id"
                        " JOIN run r ON r.id = k.run_id WHERE r.name = ? GROUP BY s.value", ("f",)))
steps = db.execute("SELECT count(DISTINCT step) FROM step s JOIN run r ON r.id = s.run_id WHERE r.name = ?",
                   ("f",)).fetchone()[0]
rep = db.execute("SELECT repeats FROM run WHERE name = ?", ("f",)).fetchone()[0]
rows = [r for r in csv.DictReader(sys.stdin) if r["name"] in calls]
bad = [r["name"][:40] for r in rows
       if abs(float(r["base_calls"]) - calls[r["name"]] / rep) > 1e-6 * calls[r["name"]] or int(r["n_base"]) != steps]
print("%d of %d keys, %d steps, repeats %d: base_calls and n_base %s" % (len(rows), len(calls), steps, rep,
      "as sqlite3 says" if rows and not bad else "DIFFER for %d: %s" % (len(bad), bad[:3])))
'
exit $bad
