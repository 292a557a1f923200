# Acceptance: profdb collectives (per rank and --by step) equals an
# independent computation from the raw kernel_details.csv files
# (analyses_ref.py: HCCL rows, collective from the name, statistics.median):
# the hand-made 5-rank export of testdata/analyses and the 2-rank corpus
# Ascend-msinsight Level0 and Level1 exports.
for src in "$PROFDB_TESTDATA/analyses/ranks" \
           "$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level0" \
           "$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text/level1"; do
  rm -f c.db
  echo "$(basename "$src"):"
  $PROFDB ingest -q --db c.db --run r "$src" || exit 1
  $PROFDB collectives --db c.db --format csv --unit ns >r.csv || exit 1
  $PROFDB collectives --db c.db --format csv --unit ns --by step >s.csv || exit 1
  python3 "$HERE/analyses_ref.py" collectives ascend "$src" r.csv s.csv || exit 1
done
