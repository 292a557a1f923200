#!/bin/sh
# report_html_chromium.sh PROFDB - the HTML report in headless Chromium
# (issue 16: "a screenshot of the html report is looked at"):
# scripts/screenshot-report renders it to a 1200x900 PNG (header read
# here), and on HTA's trace_diff, whose kernel names run to 1800
# characters, the page is no wider than the 1200 px window (nothing cut:
# a copy of the page with one line of script puts
# document.documentElement.scrollWidth in its title, read by --dump-dom).
# Chromium is installed when missing if we are root with apt-get (as
# scripts/setup does); else exit 77 (skipped) with the reason.
set -eu
PROFDB=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profdb-chromium-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
find_chromium() {
  for c in chromium chromium-browser google-chrome; do
    command -v $c >/dev/null 2>&1 && { command -v $c; return 0; }
  done
  return 1
}
if ! browser=$(find_chromium); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || true
  fi
  browser=$(find_chromium) || {
    echo "skipped: chromium is not installed and could not be (needs root and apt-get)"; exit 77; }
fi
"$PROFDB" sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
"$PROFDB" report --db runs.db base slow --format html -o report.html
PROFDB_NO_INSTALL=1 sh "$HERE/../../scripts/screenshot-report" report.html shot.png
python3 - shot.png <<'PY'
import struct, sys
head = open(sys.argv[1], "rb").read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", head[16:24])
print("png %dx%d" % (w, h))
assert (w, h) == (1200, 900)
PY
D=${PROFDB_CORPUS:-$HERE/../../testdata/corpus}/HolisticTraceAnalysis/tests/data/trace_diff
"$PROFDB" ingest -q --db hta.db --run control "$D/control/control.json.gz"
"$PROFDB" ingest -q --db hta.db --run test "$D/test/test.json.gz"
"$PROFDB" report --db hta.db control test --format html --resamples 0 -o hta.html 2>/dev/null
sed 's|</body>|<script>document.title = "scrollWidth=" + document.documentElement.scrollWidth;</script></body>|' \
  hta.html >width.html
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$WORK/profile" \
  --window-size=1200,900 --dump-dom "file://$WORK/width.html" 2>/dev/null >dom.html
width=$(grep -o '<title>scrollWidth=[0-9]*' dom.html | head -1 | sed 's/.*=//')
echo "trace_diff report: page width ${width:-unknown} px in a 1200 px window"
[ -n "$width" ] && [ "$width" -le 1200 ]
