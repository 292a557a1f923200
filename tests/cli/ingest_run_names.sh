# The default run name is the PATH's base name without the format's
# extensions when PATH is a file; a folder keeps its whole name (issue 16).
# Expected names written by hand in ingest_run_names.stdout.exact.
set -u
cp "$PROFDB_TESTDATA/kineto/nested.json" "worker0.1623143089861.pt.trace.json"
gzip -c "$PROFDB_TESTDATA/kineto/nested.json" >base.json.gz
gzip -c "$PROFDB_TESTDATA/kineto/nested.json" >rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz
mkdir traces.json && cp "$PROFDB_TESTDATA/kineto/nested.json" traces.json/t.json
for p in worker0.1623143089861.pt.trace.json base.json.gz rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz traces.json; do
  $PROFDB ingest -q --db t.db "$p" || echo "ingest $p failed"
done
$PROFDB sql --db t.db --format csv "SELECT name FROM run ORDER BY id"
