# A folder of benchmark files is never one run with each file a rank
# (doc/benchmarks.md "Operator benchmarks"): refused with the way out, the database as
# before; --split makes one run per file, each the same as the file
# ingested by itself (one rank, its own format, the same kernel rows).
B=$PROFDB_TESTDATA/bench
mkdir -p f mix
cp "$B/gbench.json" f/gb_cpu.json
cp "$B/pytest_benchmark.json" f/pb_cuda.json
cp "$B/gbench.json" mix/gb_cpu.json
cp "$PROFDB_TESTDATA/kineto/nested.json" mix/trace.json
$PROFDB ingest -q --db d.db --run first "$B/cpu_ops.csv" || exit 1
cp d.db before.db
$PROFDB ingest -q --db d.db f 2>err.txt; echo "exit $?"; cat err.txt
cmp -s d.db before.db && echo "database unchanged"
$PROFDB ingest -q --db d.db mix 2>err.txt; echo "exit $?"; cat err.txt
cmp -s d.db before.db && echo "database unchanged"
echo "== --split: one run per file"
$PROFDB ingest -q --db d.db --split f || exit 1
$PROFDB runs --db d.db --format csv | cut -d, -f2,3,4
$PROFDB ingest -q --db one.db --run gb_cpu.json "$B/gbench.json" || exit 1
$PROFDB ingest -q --db one.db --run pb_cuda.json "$B/pytest_benchmark.json" || exit 1
for r in gb_cpu.json pb_cuda.json; do
  a=$($PROFDB kernels --db d.db --run $r --format csv | md5sum)
  b=$($PROFDB kernels --db one.db --run $r --format csv | md5sum)
  [ "$a" = "$b" ] && echo "$r: kernels as the file ingested by itself"
done
