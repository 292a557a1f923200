# Near-miss input gets a hint naming what profdb reads (issue 35 item 8):
# a CSV whose header almost names the wall-clock columns (elapsed in ms,
# capitalised names) is told the exact columns, a header far from them
# keeps the plain "not a format" line; a mistyped --by value gets the one
# close name, as a mistyped command or option does, and none when nothing
# is close.  Each case: exit status, then the one error line.
B=$PROFDB_TESTDATA/bench
printf 'api,elapsed_ms\ntorch.add,1.5\n' >ms.csv
printf 'API,Elapsed_us\ntorch.add,1.5\n' >caps.csv
printf 'op,seconds\ntorch.add,1.5\n' >far.csv
for f in ms.csv caps.csv far.csv; do
  $PROFDB ingest -q --db h.db "$f" 2>err.txt
  echo "$f: exit $?"
  cat err.txt
done
echo "database after the refusals: $(ls h.db 2>/dev/null || echo none)"
$PROFDB ingest -q --db k.db "$PROFDB_TESTDATA/kineto/nested.json" || exit 1
try() {
  $PROFDB "$@" >out.txt 2>err.txt
  echo "profdb $*: exit $?"
  cat err.txt
}
try kernels --db k.db --by nam
try kernels --db k.db --by name,tpye
try kernels --db k.db --by zzzz
try kernels --db k.db --sort totl
try launches --db k.db --by stram
try ranks --db k.db --by rnk
try breakdown --db k.db --by stpe
try collectives --db k.db --by lnk
try memory --db k.db --by devce
try diff --db k.db nested nested --by nam
