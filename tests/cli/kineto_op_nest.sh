# Host op self and device times computed by the store when a file ends
# (op_nest.c), not kept by the reader: testdata/kineto/nested.json, whose
# values are worked out by hand in tests/check_ingest_kineto.c (rank and
# base time come after traceEvents, so the ops are first stored under a
# guessed rank and moved).  Two copies of the file in one run, same rank,
# read with -j 1 and -j 2 (records of the two files interleave): each copy
# nests on its own, so every row appears twice with the same values; were
# the copies nested together, each op would become a child of its twin.
# The three cudaLaunchKernel calls are op rows of their own (self = their
# duration, no device times) and children of the innermost op holding them:
# aten::addmm 30 - 5 = 25 us, aten::clamp_min (relu's equal-span child)
# 20 - 4 = 16 us, aten::mul 10.25 - 3 = 7.25 us.
mkdir -p in
cp "$PROFDB_TESTDATA/kineto/nested.json" in/a.json
# the copy says rank 2: one run holds one source per rank (doc/inputs.md "Sessions
# and ranks"), and a byte-identical copy would be read once
sed 's/"rank": 3/"rank": 2/' "$PROFDB_TESTDATA/kineto/nested.json" >in/b.json
for j in 1 2; do
  $PROFDB ingest -q -j $j --db t.db --run j$j in || echo "ingest -j $j failed"
  $PROFDB sql --db t.db --format csv "SELECT r.name AS run, s.value AS name, o.rank, o.tid,
    o.start_ns - 1000000000 AS rel_ns, o.self_ns, o.device_self_ns, o.device_total_ns
    FROM op o JOIN run r ON r.id = o.run_id JOIN str s ON s.id = o.name_id
    WHERE r.name = 'j$j' ORDER BY s.value, o.id"
done
