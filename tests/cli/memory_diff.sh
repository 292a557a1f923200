# diff and report --table memory: each device's peak allocated and reserved
# bytes compared between runs.  base is testdata/memory/trace_totals.json,
# new the same with its Total Reserved 4194304 (4 MiB) made 8388608: by hand
# (testdata/memory/README.md) CUDA:0 peak_reserved_bytes 4194304 -> 8388608,
# +100%, a regression (a peak is one figure: past the 5% threshold without a
# test), --fail-on-regression exits 3; the peaks allocated (1052076, 64) and
# the CPU's reserved (0) are unchanged.  Refused: --name, an unknown table.
T=$PROFDB_TESTDATA/memory/trace_totals.json
sed 's/4194304/8388608/' "$T" >new.json
$PROFDB ingest -q --db d.db --run base "$T" || exit 1
$PROFDB ingest -q --db d.db --run new new.json || exit 1
$PROFDB diff --db d.db --table memory base new --format csv; echo "exit $?"
$PROFDB diff --db d.db --table memory base new --format csv --fail-on-regression >/dev/null; echo "exit $?"
$PROFDB diff --db d.db --table memory new base --format csv | grep reserved
$PROFDB report --db d.db --table memory base new --format md | grep peak_
$PROFDB diff --db d.db --table memory --name 'x*' base new 2>&1; echo "exit $?"
$PROFDB diff --db d.db --table nope base new 2>&1; echo "exit $?"
