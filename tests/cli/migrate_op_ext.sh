# Migration 015 (schemas/015_op_ext_partial.sql): op(run_id, rank,
# external_id) keeps only the ops that have an External id.  A database
# written at schema 12 (testdata/migrate/schema12_runtime.db, run 'old',
# see migrate_runtime_ops.sh) opened for writing gets the partial index; a
# lookup by External id still goes through it, and the figures that lean on
# the links (launches, ops' device times) are a fresh ingest's of the same
# trace.  matmul_bench's 61 op rows, by a count of the trace's events: 30
# with an External id (20 of cat cpu_op, aten::matmul and aten::mm, and 10
# ProfilerStep# of cat user_annotation), 31 without, the runtime calls
# (cuLaunchKernelEx and cudaMemsetAsync 10 each, cudaDeviceSynchronize 11),
# stored without one: their kernels stay the launching op's.
cp "$PROFDB_TESTDATA/migrate/schema12_runtime.db" m.db
$PROFDB ingest -q --db m.db --run fresh "$PROFDB_TESTDATA/kineto_cuda/matmul_bench.pt.trace.json.gz" || exit 1
$PROFDB sql --db m.db --format csv "SELECT sql FROM sqlite_schema WHERE name = 'op_run_ext'" | tail -n 1
$PROFDB sql --db m.db --format csv "EXPLAIN QUERY PLAN SELECT id FROM op WHERE run_id = 1 AND rank = 0 AND external_id = 5" |
  tail -n 1 | cut -d, -f4
$PROFDB sql --db m.db --format csv "SELECT r.name, count(*), count(o.external_id) FROM op o JOIN run r ON r.id = o.run_id GROUP BY 1 ORDER BY 1"
for a in launches ops; do
  $PROFDB $a --db m.db --run old --format csv --unit ns >old.csv 2>/dev/null || exit 1
  $PROFDB $a --db m.db --run fresh --format csv --unit ns >fresh.csv 2>/dev/null || exit 1
  sed 's/^old,//' old.csv >old.body; sed 's/^fresh,//' fresh.csv >fresh.body
  [ -s old.csv ] && cmp old.body fresh.body && echo "$a: old = fresh ($(($(wc -l <old.csv) - 1)) rows)"
done
