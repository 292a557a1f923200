# Launch rules (doc/analyses.md "launches") on a hand-made ROCm trace
# (testdata/launches/graph_rocm.json, figures worked out in its README):
# two hipGraphLaunch replays (3 and 2 kernels; a call's time counts once,
# delays to the first kernel by start), a blocking hipMemcpyWithStream and
# a hipStreamWaitEvent with a device activity (not launches), a kernel
# starting 2 us before its launch call (the note), start and end delays.
# Then the same rules over corpus traces against launches_ref.py, which
# reads the raw JSON: HTA trace_diff/test (12 cudaGraphLaunch), the MTIA
# inference trace (recordEvent / waitOnEvent are no launches, a memcpy call
# launches several DMA requests) and tb_plugin's resnet50 autograd sample
# (blocking cudaMemcpy).
D=$PROFDB_TESTDATA/launches
$PROFDB ingest -q --db g.db --run rocm "$D/graph_rocm.json" || exit 1
$PROFDB launches --db g.db --format csv
$PROFDB launches --db g.db --by stream --format csv
$PROFDB launches --db g.db --by step --format csv
for b in name stream step; do
  $PROFDB launches --db g.db --by $b --format csv --unit ns >$b.csv 2>$b.err || exit 1
done
python3 "$HERE/launches_ref.py" "$D/graph_rocm.json" name.csv stream.csv step.csv name.err || exit 1
C=$PROFDB_CORPUS
for t in HolisticTraceAnalysis/tests/data/trace_diff/test/test.json.gz \
         HolisticTraceAnalysis/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz \
         kineto/tb_plugin/samples/resnet50_autograd_api_num_workers_0/worker0.pt.trace.json.gz; do
  rm -f c.db
  echo "${t%%/*}:"
  $PROFDB ingest -q --db c.db --run r "$C/$t" || exit 1
  for b in name stream step; do
    $PROFDB launches --db c.db --by $b --format csv --unit ns >$b.csv 2>$b.err || exit 1
  done
  python3 "$HERE/launches_ref.py" "$C/$t" name.csv stream.csv step.csv name.err || exit 1
done
