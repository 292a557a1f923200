# The html chart's bar labels stay distinct (issue 16 "Tables": "the same
# in the html chart labels"): HTA trace_diff has kernel names over 56
# characters that differ only in the middle (split_embedding_...<..., 5ul>
# and <..., 2ul>).  python3 reads the page: every bar's label differs from
# the others, and each label is its bar's full name (the <title>), or that
# name shortened (labels.h: the pieces around each "..." found in order in
# the name, or in it without the "void " and scopes the shortening drops),
# with " #k" where two would read alike.
# The same for the names in each kernel table (their title attribute).
set -e
D=$PROFDB_CORPUS/HolisticTraceAnalysis/tests/data/trace_diff
$PROFDB ingest -q --db hta.db --run control "$D/control/control.json.gz"
$PROFDB ingest -q --db hta.db --run test "$D/test/test.json.gz"
$PROFDB report --db hta.db control test --format html --resamples 0 -o r.html 2>/dev/null
python3 - r.html "$HERE" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
bars = re.findall(r'<g><title>(.*?): [^<]*</title><text x="420"[^>]*>(.*?)</text>', t)
bars = [(html.unescape(k), html.unescape(l)) for k, l in bars]
sys.dont_write_bytecode = True  # the checkout stays as it was
sys.path.insert(0, sys.argv[-1])
from label_pieces import norm, pieces_in
def stands_for(label, key):
    label = re.sub(r" #\d+$", "", label)
    return label == key or pieces_in(label, key) or pieces_in(label, norm(key))
labels = [l for _, l in bars]
print("bars: %d, distinct labels: %d, numbered: %d, each stands for its name: %s" % (
    len(bars), len(set(labels)), sum(1 for l in labels if re.search(r" #\d+$", l)),
    all(stands_for(l, k) for k, l in bars)))
# the kernel tables: names shortened in the middle (no CSS ellipsis that
# cuts the tail), distinct within each table, the whole name in the title
for tab in re.findall(r"<h2>([^<]*)</h2>\n(?:<details><summary>[^<]*</summary>\n)?<table>(.*?)</table>", t, re.S):
    if tab[0].startswith("Whole run"):
        continue  # figures with their unit, not kernel names
    cells = [(html.unescape(k), html.unescape(l))
             for k, l in re.findall(r'<td class="k" title="([^"]*)">([^<]*)</td>', tab[1])]
    ls = [l for _, l in cells]
    print("table %s: %d names, distinct: %d, longest %d, numbered: %d, each stands for its name: %s" % (
        tab[0], len(cells), len(set(ls)), max(len(l) for l in ls), sum(1 for l in ls if re.search(r" #\d+$", l)),
        all(stands_for(l, k) for k, l in cells)))
assert "text-overflow" not in t
PY
