# profdb report --format junit parses as XML (python3 xml.etree) with one
# testcase per compared kernel and a <failure> for each regression: in
# 'base' -> 'slow' only B_softmax (x1.3) fails; 'base' -> 'noise' none.
set -e
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
for new in slow noise; do
  $PROFDB report --db runs.db base $new --format junit -o $new.xml
  python3 - $new.xml <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites"
for suite in root.findall("testsuite"):
    cases = suite.findall("testcase")
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert int(suite.get("tests")) == len(cases)
    assert int(suite.get("failures")) == len(failed)
    print("%s: suite %r: %d testcases, %d failures %s" % (sys.argv[1], suite.get("name"), len(cases), len(failed), failed))
PY
done
