# Bad benchmark files: one error line naming the file and the line or byte,
# a non-zero exit, and the database exactly as before (the good run stays,
# nothing of the bad one is stored, not even its --tag)
B=$PROFDB_TESTDATA/bench
$PROFDB ingest -q --db b.db --run good "$B/wallclock.csv" || exit 1
for f in bad_truncated_pytest.json bad_mixed_backend.csv bad_line.jsonl bad_ragged.csv; do
  $PROFDB ingest -q --db b.db --run bad --tag backend=x "$B/$f" 2>err.txt
  echo "$f: exit $?"
  sed "s|$B/||g" err.txt
done
$PROFDB sql --db b.db --format csv "SELECT (SELECT group_concat(name) FROM run) AS runs,
  (SELECT count(*) FROM kernel) AS kernels, (SELECT count(*) FROM run_meta) AS meta,
  (SELECT count(*) FROM run_tag) AS user_tags"
