# profdb report --format html is one self-contained page: it parses
# (python3 html.parser), loads nothing (no script, no src/href to a URL, no
# @import or url()), and has the summary, the warnings and an inline SVG
# with one bar per changed kernel (4 kernels, all with a nonzero change).
# Every confidence-interval cell is a closed "[lo%, hi%]" (4 kernels and 3
# whole-run lines with 20 and 10 samples a side each have one).
set -e
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
$PROFDB report --db runs.db base meta_h100 --format html -o report.html 2>/dev/null
python3 - report.html <<'PY'
import sys
from html.parser import HTMLParser
text = open(sys.argv[1], encoding="utf-8").read()
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.external, self.stack = {}, [], []
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for k, v in attrs:
            if k in ("src", "href") or (v and "://" in v):
                self.external.append((tag, k, v))
p = P()
p.feed(text)
p.close()
print("svg:", p.tags.get("svg", 0), "rect:", p.tags.get("rect", 0), "script:", p.tags.get("script", 0),
      "external refs:", len(p.external), "@import/url():", text.count("@import") + text.count("url("))
print("warnings shown:", text.count('class="warn"'))
print("cards:", text.count('class="card '))
import re
cells = re.findall(r"<td>(\[[^<]*)</td>", text)
closed = [c for c in cells if re.fullmatch(r"\[[+-]\d+\.\d\d%, [+-]\d+\.\d\d%\]", c)]
print("CI cells:", len(cells), "closed:", len(closed))
print("ends with </html>:", text.rstrip().endswith("</html>"))
PY
