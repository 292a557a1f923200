# steps grouped by the ClickHouse server (lib/clickhouse/ch_steps.c): the
# busy time is a sweep over sorted start/end events there, a merge of sorted
# intervals in SQLite; the top kernel is the first (-total, name) pair there.
# testdata/clickhouse/steps_ties.json, by hand: step 1 (host span 0-100 us)
# ran zeta 10-30, eta 30-50 (starts as zeta ends), gamma 20-20 (no length),
# eta 50-60 (starts as eta ends), zeta 55-65, mu 12-15 (inside zeta), omega
# 80-85.  Union: 10-65 and 80-85 = 60 us busy; span 10-85 = 75 us (80%);
# 7 kernels, 20+20+0+10+10+3+5 = 68 us; zeta and eta tie at 30 us: the top
# kernel is the least name, eta.  With --name '*eta*' (zeta and eta): busy
# 10-65 = 55 us of span 10-65 (100%), 60 us in 4 kernels.  The launch table
# is taken away first: a pull of the kernel rows would fail, so these
# answers were grouped on the server.
# Run late: the same file 4.6e15 us (146 years) later, still within the
# server's one-integer events (time * 2 + 1 within 2^63), and one more
# kernel, omega 90-95, so that the three busy stretches' end times add up
# past 2^63 there (the sums wrap, their difference must not): busy 65 us
# of span 10-95 = 85 us (76%), 8 kernels, 73 us, top eta; with '*eta*' as
# ties.  Run far: ties 4 611 686 018 427 350 us later, so that its step
# crosses 2^62 ns (at 37.904 us), the events' bound: there the integers
# wrap in the middle of the step and sort wrongly, so the steps are
# grouped again with the times and the +1/-1 in two arrays: as ties.
. "$HERE/clickhouse_lib.sh"
ch_start 1
$PROFDB ingest -q --db a.db --run ties "$PROFDB_TESTDATA/clickhouse/steps_ties.json" || exit 1
URL=$(ch_url 1 "" prof)
for later in late:4600000000000000 far:4611686018427350; do
  python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
if sys.argv[3] == "late":
    ev.append(dict(ev[-2], ts=8, args={"correlation": 107}))
    ev.append(dict(ev[-2], ts=90, args=dict(ev[-2]["args"], correlation=107)))
for e in ev:
    e["ts"] += int(sys.argv[2])
json.dump(t, open("later.json", "w"))' "$PROFDB_TESTDATA/clickhouse/steps_ties.json" "${later#*:}" "${later%:*}" || exit 1
  $PROFDB ingest -q --db a.db --run "${later%:*}" later.json || exit 1
done
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
ch_query 1 "RENAME TABLE prof.launch TO prof.launch_away" || exit 1
for run in ties late far; do
  $PROFDB steps --db "$URL" --run $run --format csv --unit us
  $PROFDB steps --db "$URL" --run $run --format csv --unit us --name '*eta*'
done
echo "--- the same on the file:"
for run in ties late far; do
  $PROFDB steps --db a.db --run $run --format csv --unit us
  $PROFDB steps --db a.db --run $run --format csv --unit us --name '*eta*'
done
