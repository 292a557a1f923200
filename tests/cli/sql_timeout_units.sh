# sql --timeout takes a unit as the other time options do (issue 16 "every
# duration option accepts units the same way"): 300ms stops an endless
# statement after 0.300 s, 1s and a bare 1 are a second; a unit it does not
# know is one usage line, exit 2.
. "$HERE/query_setup.sh"
endless="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
for t in 300ms 1s 1; do
  timeout 20 $PROFDB sql --timeout $t "$endless" 2>&1; echo "exit $?"
done
$PROFDB sql --timeout 5m "SELECT 1" 2>&1; echo "exit $?"
$PROFDB sql --timeout 0.5s "SELECT 42"; echo "exit $?"
