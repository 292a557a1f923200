# Tags on runs: ingest --tag, the benchmark file's own columns, read-only
# metadata tags (the Kineto deviceProperties name, checked against the raw
# JSON); runs --set-tag / --unset-tag; --tag selects runs in every query
# command and --by tag:KEY groups by a tag.  Expected values are the
# hand-summed repeats of testdata/bench/wallclock.csv (torch.matmul
# 812.5 + 800 + 790.25 = 2402.75 us, torch.add 12.5 + 13 = 25.5 us).
B=$PROFDB_TESTDATA/bench
T=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
$PROFDB ingest -q --db t.db --run cpu --tag owner=me --tag api=ops "$B/wallclock.csv" || exit 1
$PROFDB ingest -q --db t.db --run gpu --tag backend=cuda "$T" || exit 1
$PROFDB ingest -q --db t.db --run bad --tag noequals "$B/wallclock.csv"; echo "bad tag: exit $?"
echo "== all tags"
$PROFDB runs --db t.db --tags --format csv
python3 - "$T" <<'PY'
import gzip, json, sys
print("raw deviceProperties[0].name:", json.load(gzip.open(sys.argv[1]))["deviceProperties"][0]["name"])
PY
echo "== --tag backend=cpu (a file tag)"
$PROFDB kernels --db t.db --tag backend=cpu --format csv --unit us
echo "== --tag device=... (a meta tag) selects the GPU run only"
$PROFDB summary --db t.db --tag "device=Tesla V100-SXM2-32GB" --format csv | cut -d, -f1
echo "== two values of one key: either; two keys: both"
$PROFDB summary --db t.db --tag backend=cpu --tag backend=cuda --format csv | cut -d, -f1
$PROFDB summary --db t.db --tag backend=cpu --tag owner=nobody --format csv | cut -d, -f1
echo "== --by name,tag:backend"
$PROFDB kernels --db t.db --tag owner=me --by name,tag:backend --format csv --unit us | cut -d, -f1,3,4,13,14
echo "== steps and ops filter too"
$PROFDB steps --db t.db --tag backend=cuda --format csv | cut -d, -f1 | sort -u
$PROFDB ops --db t.db --tag backend=cpu --format csv
echo "== set, hide, unset"
$PROFDB runs --db t.db --run cpu --set-tag backend=x86 || exit 1
$PROFDB runs --db t.db --run cpu --set-tag owner=you || exit 1
$PROFDB runs --db t.db --run cpu --unset-tag api || exit 1
$PROFDB runs --db t.db --run cpu --tags --format csv
$PROFDB runs --db t.db --run cpu --unset-tag backend || exit 1
$PROFDB runs --db t.db --run cpu --unset-tag backend; echo "unset a file tag: exit $?"
$PROFDB runs --db t.db --run gpu --unset-tag device; echo "unset a meta tag: exit $?"
$PROFDB runs --db t.db --run cpu --unset-tag nosuch; echo "unset a missing tag: exit $?"
$PROFDB runs --db t.db --tag backend=cuda --tags --format csv
$PROFDB kernels --db t.db --tag nokey; echo "bad filter: exit $?"
echo "== summary --by tag:KEY: per value of the tag (2402.75 + 25.5 = 2428.25 us for dtype float32)"
$PROFDB summary --db t.db --by tag:dtype --format csv --unit us
$PROFDB summary --db t.db --run gpu --format csv --unit us
$PROFDB summary --db t.db --by name; echo "summary --by name: exit $?"
