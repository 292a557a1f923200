# Acceptance: profdb breakdown over the corpus Ascend text exports (Level0,
# Level1 with 2 ranks, Level2) equals an independent computation from the raw
# kernel_details.csv (analyses_ref.py: exact decimal us -> ns, its own interval
# union), every column, per step and --by rank; and those figures agree with
# the profiler's own step_trace_time.csv (Computing, Communication,
# Overlapped, Free) within the rounding of its printed inputs.
C=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text
for l in level0 level1 level2; do
  rm -f a.db
  echo "$l:"
  $PROFDB ingest -q --db a.db --run r "$C/$l" || exit 1
  $PROFDB breakdown --db a.db --format csv --unit ns >b.csv || exit 1
  $PROFDB breakdown --db a.db --format csv --unit ns --by rank >br.csv || exit 1
  python3 "$HERE/analyses_ref.py" breakdown ascend "$C/$l" b.csv || exit 1
  python3 "$HERE/analyses_ref.py" breakdown ascend "$C/$l" br.csv rank || exit 1
done
