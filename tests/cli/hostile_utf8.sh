# Outputs that CI parses stay valid with names that are not UTF-8: a
# kernel name with a stray 0xff byte, a cut 3-byte sequence and an
# overlong '/' is written with each bad byte as U+FFFD by every writer.
# Each output is parsed by a strict parser (python3 json, xml.etree,
# html.parser after a strict UTF-8 decode, csv) and the decoded name is
# compared with the one worked out here by hand.
. "$HERE/hostile_lib.sh"
mkdir -p "$WORK/a" "$WORK/b"
# Bad<ff>Name<e4 b8>|x<c0 af>: 0xff and 0xc0 0xaf are invalid bytes (one
# U+FFFD each: 3), the cut e4 b8 (before '|') is two more.
for d in a b; do
	printf 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n' >"$WORK/$d/kernel_details.csv"
	for s in 1 2 3 4 5 6; do
		dur=10; [ $d = b ] && dur=20
		printf '%s,Bad\377Name\344\270|x\300\257,MatMul,AI_CORE,%s.000,%s,0,8\r\n' "$s" "$((s * 1000))" "$dur" >>"$WORK/$d/kernel_details.csv"
		printf '%s,Good_%s,Add,AI_CORE,%s.500,1,0,8\r\n' "$s" "é" "$((s * 1000))" >>"$WORK/$d/kernel_details.csv"
	done
done
pd ingest --db "$DB" --run a "$WORK/a/kernel_details.csv" && pd ingest --db "$DB" --run b "$WORK/b/kernel_details.csv"
report ingest "$(bad_status $? | grep -v 'accepted (exit 0)')"

# parse FMT FILE: strict decode and parse; prints the names found that
# carry a U+FFFD, one per line.
parse() {
	python3 - "$1" "$2" <<'PY'
import csv, io, json, sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
fmt, path = sys.argv[1], sys.argv[2]
raw = open(path, "rb").read()
text = raw.decode("utf-8")          # strict: raises on any invalid byte
found = set()
def look(s):
    if isinstance(s, str) and "\ufffd" in s:
        found.add(s.strip(" `"))
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            look(k); walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
    else:
        look(v)
if fmt == "json":
    walk(json.loads(text))
elif fmt == "junit":
    for e in ET.fromstring(raw).iter():
        look(e.get("name")); look(e.text)
elif fmt == "html":
    class P(HTMLParser):
        def handle_data(self, d): look(d)
        def handle_starttag(self, tag, attrs):
            for k, v in attrs: look(v)
    p = P(convert_charrefs=True); p.feed(text); p.close()
elif fmt == "csv":
    for row in csv.reader(io.StringIO(text)):
        for cell in row: look(cell)
elif fmt == "table":  # columns are separated by two spaces or more
    for line in text.splitlines():
        for word in line.split("  "):
            look(word)
else:  # md: cells between unescaped '|'
    for line in text.splitlines():
        for cell in line.replace("\\|", "\x00").split("|"):
            for word in cell.split("  "):
                look(word.replace("\x00", "|"))
for s in sorted(found):
    print(s)
PY
}
want=$(printf 'Bad\357\277\275Name\357\277\275\357\277\275|x\357\277\275\357\277\275')
check() { # NAME FMT FILE
	got=$(parse "$2" "$3" 2>"$WORK/perr")
	if [ $? != 0 ]; then report "$1" "not valid $2: $(tail -1 "$WORK/perr")"; return; fi
	# the name itself (html also has it inside a chart label's longer text)
	if ! printf '%s\n' "$got" | grep -qxF -- "$want"; then
		report "$1" "names with U+FFFD: '$got', expected '$want'"; return
	fi
	report "$1" ""
}
for f in json junit html; do
	pd report --db "$DB" a b --format $f -o "$WORK/r.$f"
	[ $? -gt 1 ] && echo "FAIL report_$f: exit $?"
	check report_$f $f "$WORK/r.$f"
done
pd report --db "$DB" a b --format csv -o "$WORK/r.csv"
check report_csv csv "$WORK/r.csv"
for f in json csv; do
	pd kernels --db "$DB" --format $f; cp "$WORK/out" "$WORK/k.$f"
	check kernels_$f $f "$WORK/k.$f"
	pd diff --db "$DB" a b --format $f; cp "$WORK/out" "$WORK/d.$f"
	check diff_$f $f "$WORK/d.$f"
	pd sql --db "$DB" --format $f "SELECT name FROM kernel_v"; cp "$WORK/out" "$WORK/s.$f"
	check sql_$f $f "$WORK/s.$f"
done
pd kernels --db "$DB" --format md --run a; cp "$WORK/out" "$WORK/k.md"
check kernels_md md "$WORK/k.md"
pd kernels --db "$DB" --wide --run a; cp "$WORK/out" "$WORK/k.txt"
check kernels_table table "$WORK/k.txt"
# valid multi-byte text passes through unchanged
grep -q 'Good_é' "$WORK/k.json" && grep -q 'Good_é' "$WORK/r.html" && grep -q 'Good_é' "$WORK/r.junit"
report valid_text_unchanged "$([ $? = 0 ] || echo "Good_é lost")"
