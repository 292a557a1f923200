# profdb diff --table breakdown|collectives on the two hand-made runs of
# testdata/analyses/diff (README there: span 63 -> 84.5 us, compute 41.5
# unchanged, communication 21.5 -> 43, compute_pct 65.8931 -> 49.1374 a
# regression, busbw 279.07 -> 139.53 GB/s a regression, all_gather 'new' at
# 300 GB/s; every separated pair p = 2/70 = 0.0286); csv, json, md; exit 3
# with --fail-on-regression; an unknown table and --name are refused.
D=$PROFDB_TESTDATA/analyses/diff
$PROFDB ingest -q --db d.db --run b "$D/base.json" || exit 1
$PROFDB ingest -q --db d.db --run n "$D/new.json" || exit 1
$PROFDB diff --db d.db --table breakdown b n --alpha 0.05 --resamples 0
$PROFDB diff --db d.db --table breakdown b n --alpha 0.05 --resamples 0 --format csv
$PROFDB diff --db d.db --table collectives b n --alpha 0.05 --resamples 0 --format json
$PROFDB diff --db d.db --table collectives b n --alpha 0.05 --resamples 0 --format md
$PROFDB diff --db d.db --table collectives b n --alpha 0.05 --fail-on-regression >/dev/null; echo "exit $?"
$PROFDB diff --db d.db --table collectives b b --fail-on-regression --format csv; echo "exit $?"
$PROFDB diff --db d.db --table ops b n 2>&1; echo "exit $?"
$PROFDB diff --db d.db --table breakdown --name "gemm*" b n 2>&1; echo "exit $?"
