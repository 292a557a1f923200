# Acceptance: on HTA's MTIA inference trace the DMA transfers (dma_request,
# 877 of 1313 device events) are memory, not compute (HTA's classification,
# doc/analyses.md "breakdown"); pe_exe / remote / merge are compute.  Every column
# equals an independent computation over the raw JSON (analyses_ref.py),
# --by rank and per step; bandwidth reads the DMAs' size and direction.
T=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz
$PROFDB ingest -q --db m.db --run r "$T" || exit 1
$PROFDB breakdown --db m.db --format csv --unit ns --by rank >br.csv || exit 1
$PROFDB breakdown --db m.db --format csv --unit ns >b.csv || exit 1
python3 "$HERE/analyses_ref.py" breakdown kineto "$T" br.csv rank || exit 1
python3 "$HERE/analyses_ref.py" breakdown kineto "$T" b.csv || exit 1
$PROFDB bandwidth --db m.db --format csv --unit ns --by rank >w.csv || exit 1
python3 "$HERE/analyses_ref.py" bandwidth kineto "$T" w.csv rank || exit 1
