# A kernel's step through its runtime call (issue 15, third round: set
# when the kernel row is written, kernel_step.c, checked at commit, and
# set back for the commit's UPDATE when the check fails).  Hand-made
# traces, one rank each, ingested as one folder with -j1 and -j2; each
# line of the expected output was worked out by hand from the rule "a
# kernel without a step takes the smallest step whose host span
# [ts, ts + dur) holds the start of a runtime call with its rank and
# correlation id; none: NULL":
#  rank-0: steps 1 [0,100) and 2 [100,200) us; k1 comes before its call
#    (50 us: step 1), k2 after its call (150: step 2), k3's call at 250
#    is in no step (NULL), k4 has no call (NULL).
#  rank-1: two calls with correlation 2 (150 and 10 us): k2 takes the
#    smaller step, 1 (a repeated id: the guess from the first call, 2,
#    must be undone).
#  rank-2: ProfilerStep#0 [40,60) comes after the kernels: k1's call at
#    50 is in steps 0 and 1, so 0 (the spans changed after the guess).
#  rank-3: no distributedInfo and no base time before traceEvents (the
#    steps are sent when the file ends): k1 1, k2 2 as for rank-0.
#  rank-4: distributedInfo (rank 4) and a base time of 1 ms after
#    traceEvents: its rows move from rank 0 and 1 ms later; k1 1, k2 2.
#  rank-5: a second capture's ProfilerStep#3 [500,600) comes after k1
#    (as in a tiled trace) but holds no earlier call: k1 1; k5's call at
#    550: 3.
mkdir ranks
steps='{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":80,"args":{"External id":11}},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":100,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":110,"dur":80,"args":{"External id":12}},'
k1='{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":300,"dur":5,"args":{"correlation":1,"device":0,"stream":7}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":50,"dur":2,"args":{"correlation":1}},'
k2='{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":150,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":310,"dur":5,"args":{"correlation":2,"device":0,"stream":7}},'
last='{"ph":"i","s":"g","name":"end","pid":1,"tid":1,"ts":400}'
cat > ranks/rank-0.json <<EOF
{"distributedInfo": {"rank": 0}, "baseTimeNanoseconds": 0, "traceEvents": [
$steps
$k1
$k2
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":250,"dur":2,"args":{"correlation":3}},
{"ph":"X","cat":"kernel","name":"k3","pid":0,"tid":7,"ts":320,"dur":5,"args":{"correlation":3,"device":0,"stream":7}},
{"ph":"X","cat":"kernel","name":"k4","pid":0,"tid":7,"ts":330,"dur":5,"args":{"correlation":4,"device":0,"stream":7}},
$last]}
EOF
cat > ranks/rank-1.json <<EOF
{"distributedInfo": {"rank": 1}, "baseTimeNanoseconds": 0, "traceEvents": [
$steps
$k2
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":2,"args":{"correlation":2}},
$last]}
EOF
cat > ranks/rank-2.json <<EOF
{"distributedInfo": {"rank": 2}, "baseTimeNanoseconds": 0, "traceEvents": [
$steps
$k1
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#0","pid":1,"tid":3,"ts":40,"dur":20},
$last]}
EOF
cat > ranks/rank-3.json <<EOF
{"traceEvents": [
$steps
$k1
$k2
$last]}
EOF
cat > ranks/rank-4.json <<EOF
{"traceEvents": [
$steps
$k1
$k2
$last], "distributedInfo": {"rank": 4}, "baseTimeNanoseconds": 1000000}
EOF
cat > ranks/rank-5.json <<EOF
{"distributedInfo": {"rank": 5}, "baseTimeNanoseconds": 0, "traceEvents": [
$steps
$k1
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":1,"ts":500,"dur":100},
{"ph":"X","cat":"kernel","name":"k5","pid":0,"tid":7,"ts":700,"dur":5,"args":{"correlation":5,"device":0,"stream":7}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":550,"dur":2,"args":{"correlation":5}},
$last]}
EOF
for j in 1 2; do
  echo "-j$j"
  $PROFDB ingest -q -j $j --db j$j.db ranks || echo "ingest -j$j failed"
  sqlite3 j$j.db "SELECT k.rank, s.value, k.start_ns, coalesce(k.step, 'NULL') FROM kernel k
                  JOIN str s ON s.id = k.name_id ORDER BY k.rank, k.start_ns"
done
# The guesses' work bound (a rebuild of the segments per change of the
# spans was quadratic in steps): past it no guess is made and the commit's
# UPDATE places every kernel, with the same steps as above.
PROFDB_KSTEP_SEG_WORK=1 $PROFDB ingest -q -j 1 --db w.db ranks || echo "ingest past the work bound failed"
for d in j1 w; do
  sqlite3 $d.db "SELECT k.rank, s.value, k.start_ns, coalesce(k.step, 'NULL') FROM kernel k
                 JOIN str s ON s.id = k.name_id ORDER BY k.rank, k.start_ns" >$d.txt
done
cmp -s j1.txt w.txt && echo "past the work bound: the same steps" || { echo "past the work bound: DIFFERENT"; diff j1.txt w.txt; }
