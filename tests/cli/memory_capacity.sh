# profdb memory: capacity_bytes is the device's totalGlobalMem from the
# trace's deviceProperties (the entry whose id is the Device Id) and
# peak_pct_of_capacity the peak as % of it; empty, never 0, where unknown
# (the CPU, a trace without deviceProperties).  The trace is
# testdata/memory/trace_totals.json with a deviceProperties list added
# (here, so the hand-worked README values stay those of the file); checked
# against capacity_ref, a few lines of Python over the raw JSON.
. "$HERE/query_setup.sh"
T=$PROFDB_TESTDATA/memory/trace_totals.json
python3 - "$T" cap.json <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
d["deviceProperties"] = [{"id": 1, "name": "other", "totalGlobalMem": 999},
                         {"id": 0, "name": "hand GPU", "totalGlobalMem": 4208304}]
json.dump(d, open(sys.argv[2], "w"))
PY
$PROFDB ingest -q --db c.db --run cap cap.json || exit 1
$PROFDB ingest -q --db c.db --run plain "$T" || exit 1
$PROFDB memory --db c.db --format csv | tee d.csv || exit 1
$PROFDB memory --db c.db --run cap --by step --format csv
python3 - cap.json d.csv <<'PY' || exit 1
# capacity_ref: the peak is the highest Total Allocated of the device's
# [memory] events; capacity its deviceProperties totalGlobalMem.
import csv, json, sys
d = json.load(open(sys.argv[1]))
cap = {p["id"]: p["totalGlobalMem"] for p in d["deviceProperties"]}
peak = {}
for e in d["traceEvents"]:
    a = e.get("args", {})
    if e.get("name") == "[memory]" and a.get("Device Type") == 1 and "Total Allocated" in a:
        peak[a["Device Id"]] = max(peak.get(a["Device Id"], 0), a["Total Allocated"])
for r in csv.DictReader(open(sys.argv[2])):
    if r["run"] == "cap" and r["device_type"] == "CUDA":
        i = int(r["device_id"])
        want = "%.1f" % (100.0 * peak[i] / cap[i])
        assert int(r["capacity_bytes"]) == cap[i], r
        assert "%.1f" % float(r["peak_pct_of_capacity"]) == want, (r, want)
        print("capacity_ref: CUDA %d peak %d of %d bytes = %s%%" % (i, peak[i], cap[i], want))
    else:
        assert r["capacity_bytes"] == "" and r["peak_pct_of_capacity"] == "", r
PY
$PROFDB memory --db c.db --format json >m.json || exit 1
check_json m.json memory
