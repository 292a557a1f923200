# Run tags travel: push copies run_tag (ingest --tag), pull brings it back,
# and --tag selects the same runs on --db clickhouse:// as on the SQLite
# file (same bytes).  By hand: run a has team=infer and gpu=h100, run b
# team=train; so --tag team=infer is a alone (testdata/clickhouse/median.json:
# k'even ü 17 us, odd 18 us), --tag team=train b alone (testdata/query).
. "$HERE/clickhouse_lib.sh"
ch_start 1
T=$PROFDB_TESTDATA/query/trace.json
$PROFDB ingest -q --db a.db --run a --tag team=infer --tag gpu=h100 "$PROFDB_TESTDATA/clickhouse/median.json" || exit 1
$PROFDB ingest -q --db a.db --run b --tag team=train --repeats 2 "$T" || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
echo "--- on the server:"
ch_query 1 "SELECT r.name, t.key, t.value FROM prof.run_tag t JOIN prof.run r ON r.id = t.run_id ORDER BY r.name, t.key"
same() {
  $PROFDB "$@" --db a.db >want 2>want.err; ws=$?
  $PROFDB "$@" --db "$URL" >got 2>got.err; gs=$?
  if [ $ws = $gs ] && cmp -s want got && cmp -s want.err got.err; then
    echo "same (exit $ws): $*"
    cat got
  else
    echo "DIFFERENT (exit $ws vs $gs): $*"
    diff want got | head -5
    diff want.err got.err | head -3
  fi
}
same runs --tags --format csv
same runs --tags --tag team=infer --format csv
same summary --tag team=train --format csv
same kernels --tag team=train --by kind --format csv --unit ns
same kernels --tag gpu=h100 --format csv --unit ns --top 1
same kernels --by tag:team,kind --format csv --unit ns
echo "--- pulled back:"
$PROFDB pull --quiet --from "$URL" --run a --db p.db || exit 1
sqlite3 p.db "SELECT r.name, t.key, t.value FROM run_tag t JOIN run r ON r.id = t.run_id ORDER BY t.key"
