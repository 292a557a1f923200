# --top N, --sort COL and --asc on every table command whose query does
# not order its rows itself (issue 35 item 4; one implementation,
# profdb_result_order): each answer, sorted and cut, is checked by
# order_top_sort_ref.py against the same command's unsorted csv ordered
# from scratch (runs kept together, numbers largest first unless --asc,
# names A..Z, empty last, at most N per run; summary, runs and apis: one
# list across runs).  Then a table as printed, a
# column named as csv heads it, and an unknown column's error with the
# nearest name.
T=$PROFDB_TESTDATA
cp "$T/analyses/breakdown_kernel_details.csv" kernel_details.csv
$PROFDB ingest -q --db o.db --run kin "$T/analyses/trace.json" || exit 1
$PROFDB ingest -q --db o.db --run coll "$T/analyses/coll_args.json" || exit 1
$PROFDB ingest -q --db o.db --run asc kernel_details.csv || exit 1
$PROFDB ingest -q --db o.db --run fl "$T/flops/conv.json" || exit 1
$PROFDB ingest -q --db o.db --run mem "$T/memory/trace_totals.json" || exit 1
$PROFDB ingest -q --db o.db --run wc "$T/bench/wallclock.csv" 2>/dev/null || exit 1
export PROFDB_DB=o.db
check() { # CMD-ARGS COL ASC TOP [PER_RUN, default 1]
  c=$1 col=$2 asc=$3 top=$4 per=${5:-1}
  extra=""
  [ "$asc" = 1 ] && extra="--asc"
  [ "$top" != 0 ] && extra="${extra:+$extra }--top $top"
  $PROFDB $c --format csv >full.csv 2>/dev/null || { echo "$c: exit $?"; return; }
  $PROFDB $c --format csv --sort "$col" $extra >sorted.csv 2>/dev/null || { echo "$c --sort $col: exit $?"; return; }
  printf '%s --sort %s%s: ' "$c" "$col" "${extra:+ $extra}"
  python3 "$HERE/order_top_sort_ref.py" full.csv sorted.csv "$col" "$asc" "$top" "$per"
}
check steps busy_us 0 1
check steps wall_us 1 2
check "launches" launch_total_us 0 2
check "launches --by stream" queue_max 0 1
check idle idle_us 0 1
check ranks compute_us 1 1
check bandwidth gbps 0 1
check collectives total_us 0 2
check collectives collective 0 0
check flops device_us 0 2
check apis per_repeat_us 1 0 0
check apis total_device_us 0 3 0
check apis api 0 0 0
check memory peak_allocated_bytes 0 1
check breakdown idle_pct 0 1
check summary total_device_us 0 2 0
check runs kernels 1 0 0
check runs name 0 0 0
echo "--- steps --top 1 --sort busy, as a table"
$PROFDB steps --top 1 --sort busy --run kin --run coll
echo "--- unknown columns"
$PROFDB idle --sort idel 2>&1; echo "exit $?"
$PROFDB apis --sort zzz 2>&1; echo "exit $?"
$PROFDB steps --top 0 2>&1; echo "exit $?"
