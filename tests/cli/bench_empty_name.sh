# A pytest-benchmark entry with an empty name is skipped and counted, as a
# CSV row with an empty api is: the other entry is stored alone.  The file
# is written here: 3 rounds of 0.001, 0.002, 0.003 s for "test_ok", so
# 3 kernels totalling 6000 us; the empty-named entry's 2 rounds are not.
cat >p.json <<'J'
{"machine_info": {}, "commit_info": {}, "benchmarks": [
 {"name": "", "stats": {"data": [0.5, 0.5, 0.5], "mean": 0.5, "rounds": 3}},
 {"name": "test_ok", "stats": {"data": [0.001, 0.002, 0.003], "mean": 0.002, "rounds": 3}}
], "datetime": "2024-05-01T10:00:00", "version": "4.0.0"}
J
$PROFDB ingest --db b.db --run pyb p.json | grep -E 'skipped|read' | sed 's|^ *||; s|.*p.json|p.json|'
$PROFDB sql --db b.db --format csv "SELECT count(*) AS kernels, sum(dur_ns) / 1000 AS total_us,
  (SELECT count(*) FROM str s JOIN kernel k ON k.name_id = s.id WHERE s.value = '') AS empty_named FROM kernel"
