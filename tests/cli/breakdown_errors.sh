# profdb breakdown refuses what makes no sense, with one line and exit 2 (or
# 1 for a missing run); --help comes from the option table.
$PROFDB ingest -q --db e.db --run asc "$PROFDB_TESTDATA/analyses/breakdown_kernel_details.csv" || exit 1
$PROFDB breakdown --db e.db --by kernel; echo "exit $?"
$PROFDB breakdown --db e.db --name 'A*'; echo "exit $?"
$PROFDB breakdown --db e.db --run nosuch; echo "exit $?"
$PROFDB breakdown --db e.db --steps 5..2; echo "exit $?"
$PROFDB breakdown --help | head -3
