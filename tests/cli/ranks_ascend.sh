# Acceptance: profdb ranks (per step and --by rank) equals an independent
# computation from the raw kernel_details.csv files (analyses_ref.py: the
# breakdown figures, median, MAD and the modified z-score with Python's
# statistics module): the hand-made 5-rank export of testdata/analyses (one
# straggler per step 2 and 3 and over the run) and the 2-rank corpus
# Ascend-msinsight Level0 and Level1 exports (z empty below 3 ranks).
for src in "$PROFDB_TESTDATA/analyses/ranks" \
           "$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level0" \
           "$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1"; do
  rm -f r.db
  echo "$(basename "$src"):"
  $PROFDB ingest -q --db r.db --run r "$src" || exit 1
  $PROFDB ranks --db r.db --format csv --unit ns >s.csv || exit 1
  $PROFDB ranks --db r.db --format csv --unit ns --by rank >r.csv || exit 1
  python3 "$HERE/analyses_ref.py" ranks ascend "$src" s.csv || exit 1
  python3 "$HERE/analyses_ref.py" ranks ascend "$src" r.csv rank || exit 1
done
