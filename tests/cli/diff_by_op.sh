# diff --by op (doc/commands.md "diff --by op"): HTA's trace_diff control / test pair
# compared operator by operator, as HTA's trace diff does: per operator name a
# "device" key (device total) and a "host_self" key, per repeat, checked key
# by key (per-repeat time and calls, both sides) against op_diff_ref.py, which
# reads the raw traces itself.  Then the verdict machinery of the kernel diff:
# --fail-on-regression exits 3, JSON valid against the diff schema, a kernel
# filter refused (exit 2).
. "$HERE/query_setup.sh"
H=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db d.db --run control "$H/control" || exit 1
$PROFDB ingest -q --db d.db --run test "$H/test" || exit 1
$PROFDB diff --db d.db control test --by op --format csv --unit ns >d.csv 2>/dev/null || exit 1
python3 "$HERE/op_diff_ref.py" "$H/control/control.json.gz" "$H/test/test.json.gz" d.csv || exit 1
# aten::mm: 182 calls a step launching 7.02 ms of device work, 46 calls 2.16 ms in test
grep -E '^(aten::mm (device|host_self)|aten::copy_ device),' d.csv
$PROFDB diff --db d.db control test --by op --fail-on-regression --format csv >/dev/null 2>&1; echo "exit $?"
$PROFDB diff --db d.db control test --by op --format json >d.json 2>/dev/null || exit 1
check_json d.json diff
$PROFDB diff --db d.db control test --by op --name 'aten::*'; echo "exit $?"
