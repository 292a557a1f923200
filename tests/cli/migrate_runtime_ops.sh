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
# Runtime calls that hold ops and calls (MTIA's gif_merge):
# testdata/migrate/schema12_nested_calls.db is profdb at schema 12's ingest
# of testdata/migrate/nested_calls.json (run 'old').  In torch's tree the call
# is the parent of what it holds, so by hand (us): ProfilerStep#1 60 - 50
# (gif_merge) - 3 (aten::add) = 7, gif_merge 50 - 30 (aten::mm) - 5
# (recordEvent) = 15, aten::mm 30 - 3 = 27, aten::add 3 - 1 = 2, each other
# call its duration.  Taking a call and the ops it holds both from the op
# holding them would leave ProfilerStep#1 at 60 - 30 - 3 - 50 - 5 = -28.
cp "$PROFDB_TESTDATA/migrate/schema12_nested_calls.db" n.db
$PROFDB ingest -q --db n.db --run fresh "$PROFDB_TESTDATA/migrate/nested_calls.json" || exit 1
q="SELECT s.value AS name, c.value AS category,
   o.start_ns - (SELECT min(start_ns) FROM op WHERE run_id = o.run_id) AS rel_ns, o.dur_ns, o.self_ns
   FROM op o JOIN str s ON s.id = o.name_id JOIN str c ON c.id = o.category_id JOIN run r ON r.id = o.run_id
   WHERE r.name = '%s' ORDER BY o.start_ns, o.dur_ns DESC"
$PROFDB sql --db n.db --format csv "$(printf "$q" old)" >old.csv || exit 1
$PROFDB sql --db n.db --format csv "$(printf "$q" fresh)" >fresh.csv || exit 1
cmp old.csv fresh.csv && echo "nested calls: old = fresh"
cat old.csv
