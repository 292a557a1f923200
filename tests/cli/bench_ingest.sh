# Wall-clock benchmark results (pytest-benchmark JSON with and without raw
# data, Google Benchmark JSON with repetitions and aggregates, the CSV and
# JSON-lines forms) ingested as runs equal an independent reading of the
# same files (tests/cli/bench_ref.py): per-API repeats, summary-only
# statistics and the files' own tags
B=$PROFDB_TESTDATA/bench
for f in pytest:pytest_benchmark.json gbench:gbench.json csv:wallclock.csv jsonl:wallclock.jsonl; do
  fmt=${f%%:*} file=${f#*:}
  rm -f b.db
  $PROFDB ingest -q --db b.db --run r "$B/$file" || exit 1
  $PROFDB kernels --db b.db --format csv --unit ns >k.csv || exit 1
  $PROFDB sql --db b.db --format csv "SELECT api, rounds, mean_ns, stddev_ns, min_ns, max_ns,
    median_ns FROM bench_summary ORDER BY api" >s.csv || exit 1
  $PROFDB sql --db b.db --format csv "SELECT key, value FROM run_tag_all ORDER BY key" >t.csv || exit 1
  echo "== $file"
  python3 "$HERE/bench_ref.py" "$fmt" "$B/$file" k.csv s.csv t.csv || exit 1
done
# the ingest summary: rows read, stored and skipped with their reasons, and
# the note on summary-only benchmarks
for f in pytest_benchmark.json gbench.json wallclock.csv; do
  $PROFDB ingest --db all.db "$B/$f" | sed "s|$B/||"
done
