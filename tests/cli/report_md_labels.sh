# The md report labels kernels as the html report does (issue 35 item 3):
# HTA trace_diff's two runs hold different kernels whose short labels read
# alike (split_embedding_..., DeviceRadixSortHistogramKernel<...>, the
# at::native elementwise kernels); each label is numbered " #k" where
# several read alike, so no two rows of the table read the same.
# python3 checks the md against the csv report of the same comparison: the
# rows are the changed kernels in verdict groups (regression, improvement,
# new, gone, inconclusive), each largest change first, 50 at most; every
# label stands for its kernel's full name (the pieces around "..." in
# order, in the name or in it without the "void " and the scopes the
# shortening drops); labels
# that read alike carry #1, #2, ... in row order, the others no number.
set -e
D=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db hta.db --run control "$D/control/control.json.gz"
$PROFDB ingest -q --db hta.db --run test "$D/test/test.json.gz"
$PROFDB report --db hta.db control test --format md --resamples 0 -o r.md 2>/dev/null
$PROFDB report --db hta.db control test --format csv --resamples 0 -o r.csv 2>/dev/null
python3 - r.md r.csv "$HERE" <<'PY'
import csv, re, sys
md = [l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("| `")]
labels = [re.match(r"\| `(.*?)` \|", l).group(1).replace("\\|", "|") for l in md]
rows = [r for r in csv.DictReader(open(sys.argv[2], encoding="utf-8")) if r["scope"] == "kernel"]
order = ["regression", "improvement", "new", "gone", "inconclusive"]
want = [r["key"] for v in order for r in rows if r["verdict"] == v][:50]
sys.dont_write_bytecode = True  # the checkout stays as it was
sys.path.insert(0, sys.argv[-1])
from label_pieces import norm, pieces_in
def stands_for(label, key):
    return label == key or pieces_in(label, key) or pieces_in(label, norm(key))
bare = [re.sub(r" #\d+$", "", l) for l in labels]
numbered_ok = True
for b in set(bare):
    nums = [re.search(r" #(\d+)$", l) for l, x in zip(labels, bare) if x == b]
    got = [int(m.group(1)) if m else None for m in nums]
    numbered_ok &= got == ([None] if len(got) == 1 else list(range(1, len(got) + 1)))
print("md rows: %d, the csv's changed kernels in verdict order: %d, same count: %s" % (
    len(labels), len(want), len(labels) == len(want)))
print("distinct labels: %d; labels that read alike before their number: %d, in %d groups" % (
    len(set(labels)), sum(1 for b in bare if bare.count(b) > 1), len({b for b in bare if bare.count(b) > 1})))
print("numbered #1..#m in row order where several read alike, else no number: %s" % numbered_ok)
print("each label stands for its kernel's name: %s" % all(stands_for(b, k) for b, k in zip(bare, want)))
for b in sorted({b for b in bare if bare.count(b) > 1}):
    print("  %d x %s" % (bare.count(b), b))
PY
