#!/bin/sh
# report_html_chromium.sh PROFDB - the HTML report opens in headless
# Chromium: scripts/screenshot-report renders it to a PNG, and the PNG must
# be a 1200x900 image (header read here).  Exit 77 (skipped) when Chromium
# is not installed; the test never installs it (PROFDB_NO_INSTALL=1).
set -eu
PROFDB=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profdb-chromium-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
for c in chromium chromium-browser google-chrome; do
  command -v $c >/dev/null 2>&1 && found=1 && break
done
[ "${found:-0}" = 1 ] || { echo "chromium not installed: skipped"; exit 77; }
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
