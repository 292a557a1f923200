# Inputs large in one dimension, checked for the answer (their time is
# measured by bench/limits, not here): a header of 3 000 columns with two
# repeated names is refused naming the first column (in header order) that
# a later one repeats, as python works it out; a diff of traces with 3 000
# deviceProperties entries warns with the device counts python counts.
. "$HERE/hostile_lib.sh"
baseline

mkdir -p "$WORK/wide"
want=$(python3 - "$WORK/wide/kernel_details.csv" <<'PY'
import sys
cols = ["Step Id", "Name", "Type", "Accelerator Core", "Start Time(us)", "Duration(us)",
        "Wait Time(us)", "Block Dim"] + ["c%d" % i for i in range(3000)] + ["c2500", "c40"]
with open(sys.argv[1], "w", newline="") as f:
    f.write(",".join(cols) + "\r\n")
    f.write(",".join(["1", "K", "T", "AI_CORE", "1000.000", "1.5", "0", "8"] + ["0"] * (len(cols) - 8)) + "\r\n")
first = min(i for i, c in enumerate(cols) if c in cols[i + 1:])
print(cols[first])
PY
)
expect_reject wide_header_duplicate 1 "$WORK/wide/kernel_details.csv"
grep -qF "column '$want' appears twice" "$WORK/err" || echo "FAIL wide_header_duplicate_message: want '$want': $(cat "$WORK/err")"

# two traces, 3 000 devices each: GPU-0..GPU-9 (300 each) on one side, the
# first renamed on the other (a difference in the compared first 8 KiB);
# the warning shows the first 100 bytes of each side's device list
python3 - "$WORK" >"$WORK/want_devices" <<'PY'
import json, sys
from collections import Counter
w = sys.argv[1]
for side in ("a", "b"):
    names = ["GPU-%d" % (i % 10) for i in range(3000)]
    if side == "b":
        names[0] = "GPU-X"
    doc = {"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 1000.0 + 10 * i,
                            "dur": 5.0, "args": {"device": 0, "stream": 7}} for i in range(5)],
           "deviceProperties": [{"id": i, "name": n} for i, n in enumerate(names)]}
    json.dump(doc, open("%s/%s.json" % (w, side), "w"))
    c = Counter(names)
    order = list(dict.fromkeys(names))
    print(", ".join(("%d x %s" % (c[n], n)) if c[n] > 1 else n for n in order)[:100])
PY
pd ingest --db "$DB" --run dev_a "$WORK/a.json" && pd ingest --db "$DB" --run dev_b "$WORK/b.json" &&
	pd report --db "$DB" dev_a dev_b --format json
why=$(bad_status $?)
[ "$why" = "accepted (exit 0)" ] && why=""
if [ -z "$why" ]; then
	while read -r line; do
		grep -qF -- "$line" "$WORK/out" || why="$why no '$line' in the warnings;"
	done <"$WORK/want_devices"
fi
report many_devices "$why"

# a line of 2 000 000 commas (a row of 2 000 001 empty fields) after one
# good row: refused at its line, before its field index takes gigabytes
mkdir -p "$WORK/commas"
python3 - "$WORK/commas/kernel_details.csv" <<'PY'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    f.write("1,K,T,AI_CORE,1000.000,1.5,0,8\r\n")
    f.write("," * 2000000 + "\r\n")
PY
expect_reject csv_too_many_fields 1 "$WORK/commas/kernel_details.csv"
grep -q "kernel_details.csv:3: a row of more than 262144 fields" "$WORK/err" ||
	echo "FAIL csv_too_many_fields_message: $(cat "$WORK/err")"
