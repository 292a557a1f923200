# Push asks the server, in each kernel INSERT's URL, to write a part per
# 131 072 rows (ch_push_rows.c, NATIVE_SETTINGS: min_insert_block_size_rows)
# rather than per 1 M, where gathering ~300 MB blocks cost it 31% of its
# CPU.  The server gathers push's 4096-row Native blocks until it holds at
# least that many rows, so a run of 300 000 kernels in one INSERT makes
# parts of 131 072 (32 blocks), 131 072 and 37 856 rows, and the same run
# in two parts (ids split in halves of 150 000) 131 072 + 18 928 rows each.
# Read back from the server's part_log (every new part with its rows).
. "$HERE/clickhouse_lib.sh"
ch_start 1 '<part_log><database>system</database><table>part_log</table><flush_interval_milliseconds>500</flush_interval_milliseconds></part_log>'
python3 "$HERE/../../bench/gen_kernel_csv.py" --rows 300000 --seed 3 --out kernel_details.csv >/dev/null 2>&1 || exit 1
$PROFDB ingest -q --db a.db --run big kernel_details.csv || exit 1
$PROFDB sql --db a.db --format csv "SELECT count(*) AS kernels FROM kernel"
PROFDB_PUSH_STREAMS=1 $PROFDB push --quiet --db a.db --to "$(ch_url 1 "" one)" || exit 1
PROFDB_PUSH_SPLIT_ROWS=1 $PROFDB push --quiet --db a.db --to "$(ch_url 1 "" two)" || exit 1
ch_query 1 "SYSTEM FLUSH LOGS" || exit 1
for d in one two; do
  echo "$d: $(ch_query 1 "SELECT arrayStringConcat(arrayMap(x -> toString(x), arrayReverseSort(groupArray(rows))), ' ')
    FROM system.part_log WHERE event_type = 'NEW_PART' AND database = '$d' AND table = 'kernel_ids'")"
done
$PROFDB kernels --db a.db --run big --by type,core >want || exit 1
for d in one two; do
  $PROFDB kernels --db "$(ch_url 1 "" $d)" --run big --by type,core >got || exit 1
  cmp -s want got && echo "$d: kernels --by type,core as the SQLite file ($(wc -l <got) lines)"
done
