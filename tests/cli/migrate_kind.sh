# A database written by an old release (testdata/migrate/schema2_nccl.db:
# profdb 0.1.0, schema 2, coll_args.json as run 'old', its NCCL kernels
# stored as kind 'kernel') migrated by opening it for writing: the kind
# rule recomputed, so the old run answers as a fresh ingest of the same
# file (run 'fresh') does: communication 208 us (its 5 NCCL kernels of
# 100 + 50 + 40 + 8 + 10 us, all apart), compute 0, and diff --by kind
# finds no change.
cp "$PROFDB_TESTDATA/migrate/schema2_nccl.db" m.db
cp "$PROFDB_TESTDATA/analyses/coll_args.json" coll_args.json
$PROFDB runs --db m.db --format csv >/dev/null 2>err.txt; echo "read-only open exit $?"
$PROFDB ingest -q --db m.db --run fresh coll_args.json || exit 1
$PROFDB sql --db m.db "PRAGMA user_version" --format csv | tail -n 1 | sed 's/^/schema /'
$PROFDB kernels --db m.db --by kind --format csv --unit us | cut -d, -f1,3,4,13
$PROFDB breakdown --db m.db --format csv | cut -d, -f1,6,7,8,12
$PROFDB breakdown --db m.db --run old --format csv | cut -d, -f2- >old.csv
$PROFDB breakdown --db m.db --run fresh --format csv | cut -d, -f2- >fresh.csv
cmp old.csv fresh.csv && echo "breakdown: old = fresh"
$PROFDB diff --db m.db old fresh --by kind --resamples 0 --format csv | cut -d, -f1-5
$PROFDB sql --db m.db "SELECT kind, count(*) FROM kernel_v GROUP BY kind" --format csv
