# The SQL functions as a loadable extension in the plain sqlite3 shell:
# median of 1 3 2 10 is 2.5, and the same figures as profdb over a profdb
# file (gemm<128> durations 20 and 30 us: median 25, p90 29); union_ns of
# [0,10) [5,12) [20,23) is 12 + 3 = 15 (the first two overlap)
# A sanitizer build's extension cannot load into the plain sqlite3 shell (the
# ASan runtime must come first in the process): skip there (77 = skipped).
case "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}" in ?*) echo "skipped: sanitizer build"; exit 77 ;; esac
. "$HERE/query_setup.sh"
EXT=$(dirname "$PROFDB")/../lib/libprofdb_sqlfunc
sqlite3 :memory: ".load $EXT" "select median(x) from (select 1 as x union all select 3 union all select 2 union all select 10)"
sqlite3 :memory: ".load $EXT" "with t(x) as (values (1),(3),(2),(10)) select median(x), percentile(x, 50), stddev(x), base_name('ZerosLike46') from t"
sqlite3 q.db ".load $EXT" "select name, median(dur_us), percentile(dur_us, 90) from kernel_v where run = 'overlap' and name like '%128%' group by name"
sqlite3 :memory: ".load $EXT" "with t(a, b) as (values (0, 10), (5, 12), (20, 23)) select union_ns(a, b) from t"
