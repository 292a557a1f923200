# Acceptance (issue 32 item 6): where a run's repeats are its profiler
# steps, per_repeat is the mean of the per-step totals, and device work
# outside every step (on HTA's trace_diff test trace 614 activities,
# 56.517 ms, with no launch record: launched before the runtime capture
# began) is shown apart: a note in kernels, summary, apis and diff, and
# summary's outside_kernels / outside_device.  outside_steps_ref.py reads
# the Kineto JSON itself (steps, correlation to the launching call) and
# computes every expected figure; it shares no code with profdb.
C=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
T=$C/test/test.json.gz
REF="python3 $HERE/outside_steps_ref.py $T"
$PROFDB ingest -q --db t.db --run t "$T" || exit 1
$PROFDB ingest -q --db t.db --run c "$C/control/control.json.gz" || exit 1
note=$($REF note x) || exit 1
echo "$note"
# kernels: by name (the ingest's per-name statistics) and by name and rank
# (a scan of the kernel rows): the same per_repeat
for by in name name,rank; do
  $PROFDB kernels --db t.db --run t --by $by --top 100000 --format csv --unit ns >k.csv 2>k.err || exit 1
  $REF kernels k.csv || exit 1
  grep -F "run 't': $note; per_repeat is the per-step mean" k.err >/dev/null || { echo "kernels --by $by: no note"; cat k.err; }
done
$PROFDB summary --db t.db --run t --format json --unit ns >s.json 2>s.err || exit 1
$REF summary s.json || exit 1
grep -F "run 't': $note;" s.err >/dev/null || { echo "summary: no note"; cat s.err; }
$PROFDB apis --db t.db --run t --format csv --unit ns >a.csv 2>a.err || exit 1
$REF apis a.csv || exit 1
grep -F "run 't': $note; per_repeat is the per-step mean" a.err >/dev/null || { echo "apis: no note"; cat a.err; }
$PROFDB diff --db t.db --base c --new t --top 100000 --format csv --unit ns >d.csv 2>d.err
$REF diff d.csv || exit 1
grep -F "run 't': $note; per_repeat is the per-step mean" d.err >/dev/null || { echo "diff: no note"; cat d.err; }
# under a step range the steps are the repeats already: no note, none outside
$PROFDB summary --db t.db --run t --steps 1010..1011 --format csv --unit ns 2>&1
