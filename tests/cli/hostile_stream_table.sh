# A table or md answer past the hold budget (8 MiB, lowered here to 1 byte
# with PROFDB_HOLD_BYTES) is written in two passes over its statement
# (result_stream.c): the bytes must be those of the answer held whole
# (for a terminal, held whole and written with --wide: names whole),
# for kernels (table, md, --by name,step, --unit), ops and sql (table); and
# python checks the streamed table itself: each name's calls and total
# against the file it wrote, and every row cut at the header's dashes.
. "$HERE/hostile_lib.sh"
baseline
mkdir -p "$WORK/many"
python3 - "$WORK/many/kernel_details.csv" <<'PY'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    ts = 1000
    for i in range(2500):
        for c in range(i % 3 + 1):
            # names of varied length; durations from 0.001 to 9 999.25 us
            f.write("%d,k_%04d%s,K,AI_CORE,%d.000,%s,0,8\r\n"
                    % (c + 1, i, "x" * (i % 41), ts, ("0.001", "%d.25" % (i % 10000), "12")[(i + c) % 3]))
            ts += 20
PY
pd ingest --db "$DB" --run many "$WORK/many/kernel_details.csv" || echo "FAIL ingest: $(cat "$WORK/err")"

same_bytes stream_table kernels --db "$DB" --run many
# for a terminal: as --wide writes it (a streamed table shows names whole:
# shortening them needs every name at once to keep them apart)
same_bytes stream_table_terminal COLUMNS=80 kernels --db "$DB" --run many
same_bytes stream_table_ms kernels --db "$DB" --run many --unit ms
same_bytes stream_table_steps kernels --db "$DB" --run many --by name,step
same_bytes stream_md kernels --db "$DB" --run many --format md
# ops (its notes read the database: the child-device-time note and the
# run totals come out the same streamed)
pd ingest --db "$DB" --run ops "$PROFDB_TESTDATA/query/trace.json" || echo "FAIL ingest ops: $(cat "$WORK/err")"
same_bytes stream_ops ops --db "$DB" --run ops
same_bytes stream_ops_md ops --db "$DB" --run ops --format md
grep -q 'launched no kernels itself' "$WORK/streamed" && echo "ok stream_ops_note" ||
	echo "FAIL stream_ops_note: $(cat "$WORK/streamed")"
# past 1 024 rows csv has written rows before the note is made: the note
# comes from the database, the same as from held rows (md, whole).  1 500
# operators with a kernel each, 3 of them inside a parent that launches
# nothing itself: the note counts the 3 parents (python wrote them).
python3 - "$WORK/opsmany.json" <<'PY'
import json, sys
ev = []
for i in range(1500):
    ts = 1000 + 100 * i
    if i < 3:
        ev.append({"ph": "X", "cat": "cpu_op", "name": "parent_%d" % i, "pid": 1, "tid": 1, "ts": ts - 5,
                   "dur": 40, "args": {"External id": 10000 + i}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "op_%d" % i, "pid": 1, "tid": 1, "ts": ts, "dur": 20,
               "args": {"External id": i + 1}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts + 1,
               "dur": 2, "args": {"correlation": i + 1, "External id": i + 1}})
    ev.append({"ph": "X", "cat": "kernel", "name": "kern_%d" % i, "pid": 0, "tid": 7, "ts": ts + 4, "dur": 3,
               "args": {"correlation": i + 1, "External id": i + 1, "device": 0, "stream": 7}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
pd ingest --db "$DB" --run opsmany "$WORK/opsmany.json" || echo "FAIL ingest opsmany: $(cat "$WORK/err")"
COLUMNS= pd ops --db "$DB" --run opsmany --format md
held=$(grep '^Note: .*launched no kernels itself' "$WORK/out" | sed 's/^Note: //')
COLUMNS= pd ops --db "$DB" --run opsmany --format csv
streamed=$(grep 'launched no kernels itself' "$WORK/err" | sed 's/^profdb: note: //')
case $held in
"3 rows (parent_"*) [ "$held" = "$streamed" ] && echo "ok stream_ops_note_sql" ||
	echo "FAIL stream_ops_note_sql: held '$held', streamed '$streamed'" ;;
*) echo "FAIL stream_ops_note_sql: held note '$held'" ;;
esac
for n in 0 1 2; do
	case $streamed in *parent_$n*) ;; *) echo "FAIL stream_ops_note_sql_name: parent_$n not in '$streamed'" ;; esac
done
same_bytes stream_sql_table sql --db "$DB" "SELECT k.id, s.value AS name, k.dur_ns FROM kernel k JOIN str s ON s.id = k.name_id ORDER BY k.id"

# the streamed table itself, against python's sums (run many, in us)
PROFDB_HOLD_BYTES=1 pd kernels --db "$DB" --run many --unit us
python3 - "$WORK/out" "$WORK/many/kernel_details.csv" <<'PY'
import csv, sys
from fractions import Fraction
out, src = sys.argv[1:3]
want = {}
for r in csv.DictReader(open(src, newline="")):
    c, t = want.get(r["Name"], (0, Fraction(0)))
    want[r["Name"]] = (c + 1, t + Fraction(r["Duration(us)"]))
lines = open(out).read().splitlines()
head, dashes, rows = lines[0], lines[1], lines[2:]
# column spans from the dashes: every row must have blanks between them
spans, i = [], 0
while i < len(dashes):
    j = dashes.find(" ", i)
    j = len(dashes) if j < 0 else j
    spans.append((i, j))
    i = j + 2
cols = [head[a:b].strip() for a, b in spans[:-1]] + [head[spans[-1][0]:].strip()]
bad = [l for l in rows if any(l[b:b + 2].strip() for a, b in spans[:-1])]
got = {}
for l in rows:
    cells = [l[a:b].strip() for a, b in spans[:-1]] + [l[spans[-1][0]:]]
    rec = dict(zip(cols, cells))
    got[rec["name"]] = (int(rec["calls"]), Fraction(rec["total (us)"]))
# totals shown to the table's decimals: compare at that precision
dec = len(rows[0].split()[2].split(".")[1]) if "." in rows[0].split()[2] else 0
ok = sorted(got) == sorted(want) and all(
    got[n][0] == want[n][0] and abs(got[n][1] - want[n][1]) <= Fraction(1, 2 * 10 ** dec) for n in want)
if bad or not ok:
    print("FAIL stream_table_values: %d misaligned rows, %d names (want %d)" % (len(bad), len(got), len(want)))
else:
    print("ok stream_table_values")
PY
