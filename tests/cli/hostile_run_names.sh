# Run names that would steer a terminal or a Markdown renderer, or that
# diff / report could never name:
# - a ',' in a run name (given or from the file name) is refused at ingest
#   (exit 2, the way out named) and nothing is stored;
# - ingest, runs --delete and notes show ESC as \x1b, U+202E as \u202e and
#   a newline as \n, never the raw bytes (checked byte by byte in Python);
# - the md report's heading is one line whose run names sit in code spans
#   that their own backticks cannot close: no '<' outside a span (the spans
#   found here by CommonMark's rule, written again in Python).
W=$PROFDB_TESTDATA/bench/wallclock.csv
$PROFDB ingest -q --db r.db --run 'a,b' "$W" 2>err; echo "comma given: exit $?"; cat err
cp "$W" 'x,y.csv'
$PROFDB ingest -q --db r.db 'x,y.csv' 2>err; echo "comma from the file name: exit $?"; cat err
[ -e r.db ] && echo "r.db was created"
EVIL=$(printf 'e\033[31mred\342\200\256evil\nx')
$PROFDB ingest --db r.db --run "$EVIL" "$W" >ingest.out || exit 1
$PROFDB ingest --db r.db --run plain "$W" >>ingest.out || exit 1
$PROFDB kernels --db r.db --run "$EVIL" --name 'nosuch*' >note.out 2>&1
$PROFDB runs --db r.db --run "$EVIL" --delete >>ingest.out || exit 1
python3 - <<'PY'
for f in ("ingest.out", "note.out"):
    b = open(f, "rb").read()
    print(f, "raw ESC:", b"\x1b" in b, "raw U+202E:", "\u202e".encode() in b,
          "shown:", b.count(b"e\\x1b[31mred\\u202eevil\\nx"))
PY
HTML='x`<img src=x onerror=alert(1)>`'
$PROFDB ingest -q --db r.db --run "$HTML" "$W" || exit 1
$PROFDB ingest -q --db r.db --run "$(printf 'two\nlines')" "$W" || exit 1
$PROFDB report --db r.db --format md "$HTML" "$(printf 'two\nlines')" >r.md || exit 1
python3 - <<'PY'
import re
head = open("r.md", encoding="utf-8").read().split("\n\n")[0]
print("heading lines:", len(head.split("\n")))
# CommonMark code spans: a backtick string closed by one of the same length
out, i = "", 0
while i < len(head):
    m = re.match(r"`+", head[i:])
    if not m:
        out += head[i]; i += 1; continue
    tick = m.group(0)
    j = i + len(tick)
    while True:
        k = head.find(tick, j)
        if k < 0 or (head[k - 1] != "`" and head[k + len(tick):k + len(tick) + 1] != "`"):
            break
        j = k + 1
    if k < 0:
        out += tick; i = j; continue
    span = head[i + len(tick):k]
    print("span:", span.strip() if span.startswith(" ") and span.endswith(" ") else span)
    out += "<code/>".replace("<", "[").replace(">", "]")
    i = k + len(tick)
print("'<' outside spans:", "<" in out)
PY
