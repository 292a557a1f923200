# profdb verify's exit statuses: a run without kept summaries (a DB export)
# has nothing to check (0, no rows); an unknown run is an error (1); two runs
# and no --run, or a stray argument, are usage errors (2).
set -u
D=$PROFDB_TESTDATA/ascend_db
$PROFDB ingest --db v.db --run db --quiet "$D/db/rank0_ascend_pt" || echo "ingest failed"
$PROFDB verify --db v.db --format csv >out.csv 2>err.txt
rc=$?
echo "db export: exit $rc, $(tail -n +2 out.csv | grep -c -E ',(ok|FAIL)$') checks"
$PROFDB verify --db v.db --run nosuch --format csv >/dev/null 2>err.txt
echo "unknown run: exit $?: $(cat err.txt)"
$PROFDB ingest --db v.db --run csv --quiet "$D/csv/rank0_ascend_pt" || echo "ingest failed"
$PROFDB verify --db v.db >/dev/null 2>err.txt
echo "two runs, no --run: exit $?: $(head -1 err.txt)"
$PROFDB verify --db v.db --run csv --format csv >/dev/null 2>err.txt
echo "trimmed csv run: exit $?"
$PROFDB verify --db v.db extra >/dev/null 2>err.txt
echo "stray argument: exit $?"
