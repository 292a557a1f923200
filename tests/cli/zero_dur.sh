# Zero-length events (doc/definitions.md "Zero-length events"): one rule for every
# format, a zero duration is kept and counted in calls, a negative one is
# skipped and counted by reason in the ingest summary.  By hand:
# testdata/kineto/zero_dur.json: fill_kernel 0 + 2 us = 2 calls, 2000 ns,
# min 0; aten::empty (0 us) is one call; edited_kernel (-1) and
# aten::edited (-3) are the 2 skips, the first at event 5.
# testdata/ascend/edge/na_duration: ZeroDur (0 us, line 4) is kept as one
# call; NegDur (-2, line 5) is skipped as "negative duration".
$PROFDB ingest -q --db z.db --run k "$PROFDB_TESTDATA/kineto/zero_dur.json" || exit 1
$PROFDB kernels --db z.db --run k --format csv --unit ns
$PROFDB ops --db z.db --run k --format csv --unit ns --sort name
$PROFDB ingest -q --db z.db --run a "$PROFDB_TESTDATA/ascend/edge/na_duration" || exit 1
$PROFDB sql --db z.db --format csv "SELECT name, dur_ns FROM kernel_v WHERE run = 'a' ORDER BY start_ns"
# the skips the ingest summary prints, per file and reason
$PROFDB sql --db z.db --format csv "SELECT r.name AS run, s.reason, s.count, s.first_line FROM source_skip s JOIN source_file f ON f.id = s.source_id JOIN run r ON r.id = f.run_id ORDER BY 1, 2"
