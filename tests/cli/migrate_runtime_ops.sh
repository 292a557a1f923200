# A database written at schema 12, before runtime calls were ops
# (testdata/migrate/schema12_runtime.db: profdb at schema 12 ingested
# testdata/kineto_cuda/matmul_bench.pt.trace.json.gz as run 'old'), migrated
# by opening it for writing (migration 013): its ops then answer as a fresh
# ingest of the same trace (run 'fresh'), whose figures cli-cuda_h200 checks
# against torch's key_averages: runtime calls as rows, the ops' self time
# without them (aten::mm 231.476 us, ProfilerStep* 299.992 us as torch).
cp "$PROFDB_TESTDATA/migrate/schema12_runtime.db" m.db
$PROFDB ops --db m.db --format csv >/dev/null 2>err.txt; echo "read-only open exit $?"
$PROFDB ingest -q --db m.db --run fresh "$PROFDB_TESTDATA/kineto_cuda/matmul_bench.pt.trace.json.gz" || exit 1
$PROFDB sql --db m.db "PRAGMA user_version" --format csv | tail -n 1 | sed 's/^/schema /'
$PROFDB ops --db m.db --run old --format csv --unit ns >old.csv 2>/dev/null || exit 1
$PROFDB ops --db m.db --run fresh --format csv --unit ns >fresh.csv 2>/dev/null || exit 1
cmp old.csv fresh.csv && echo "ops: old = fresh"
cut -d, -f1,2,4,9 old.csv
$PROFDB sql --db m.db "SELECT r.name, o.step, count(*) FROM op o JOIN run r ON r.id = o.run_id JOIN str c ON c.id = o.category_id WHERE c.value = 'runtime' GROUP BY 1, 2 ORDER BY 1, 2" --format csv
