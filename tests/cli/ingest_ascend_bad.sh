# A kernel_details.csv without a Duration(us) column fails the whole ingest
# with the file and line named, and leaves no run behind.
D=$PROFDB_TESTDATA/ascend/edge
mkdir bad && printf 'Name,Type,Start Time(us)\nA,B,1\n' >bad/kernel_details.csv
$PROFDB ingest --db t.db --run ok "$D/crlf" >/dev/null
$PROFDB ingest --db t.db --run bad bad 2>&1
status=$?
$PROFDB sql --db t.db --format csv "SELECT name FROM run ORDER BY name"
$PROFDB ingest --db t.db --run cam "$D/cambricon" 2>&1 | sed "s|$D|EDGE|"
exit $status
