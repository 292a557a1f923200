# The trace_view reader on testdata/trace_view/small.json (hand-made; see
# testdata/README.md).  By hand, of its 15 events: kernels aclnnMm_MatMulV2
# (start 1010.5 us = 1010500 ns, dur 20.0005 us -> 20001 ns, half away
# from zero; core AI_CORE, stream 2, device 3200 & 31 = 0) and
# aclnnAdd_AddAiCore_Add ("Other", named after an op: 1040250, 3000);
# memcpy MEMCPY_ASYNC (1050000, 4250); communication hcom_allReduce__1_0_1
# (1080001, 100000); aclnnZero_ZerosLike is skipped (duration 0);
# EVENT_RECORD, Notify Wait, the Plane 0 Memcpy, the host op, the counter
# and the 5 M events are not rows: 15 = 4 + 1 skipped + 10 other.  Then a
# copy cut short is an error naming the file and byte, the database as it was.
set -u
cp "$PROFDB_TESTDATA/trace_view/small.json" trace_view.json
$PROFDB ingest --db t.db --run s trace_view.json | sed -e 1d
$PROFDB sql --db t.db --format csv "SELECT s.value AS name, kd.name AS kind, c.value AS core, k.device,
  k.stream, k.start_ns, k.dur_ns FROM kernel k JOIN str s ON s.id = k.name_id JOIN kind kd ON kd.id = k.kind
  LEFT JOIN str c ON c.id = k.core_id ORDER BY k.start_ns"
head -c 700 trace_view.json >cut.json
before=$(cksum <t.db)
$PROFDB ingest --db t.db --run cut cut.json; echo "cut short: exit $?"
[ "$(cksum <t.db)" = "$before" ] && echo "database unchanged"
