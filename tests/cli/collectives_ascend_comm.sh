# Ascend communication.json and communication_matrix.json in profdb
# collectives (doc/analyses.md "collectives"): the real Ascend-msinsight Level1
# (2 ranks, both files) and Level2 (rank 0, communication.json only)
# exports.  The script below shares no code with profdb: from the raw
# files it links each HCCL row of kernel_details.csv to the op of the same
# name in its step of communication.json, and computes per collective,
# group and rank the calls, transit_bytes (RDMA + SDMA Transit Size, MB =
# 10^6 bytes), transit_gbps (those bytes / their transit time), wait and
# sync (summed Wait / Synchronization Time); and every link of
# communication_matrix.json; then compares them with profdb's csv.  It also
# checks the definitions the README states on this data: SDMA = HCCS + PCIE
# + SIO, and Bandwidth(GB/s) = Transit Size(MB) / Transit Time(ms), i.e.
# MB and GB on the same (decimal) base.  Then hostile files: malformed
# JSON stops the ingest naming the file and byte and leaves the database
# as it was; ops, links, scopes and steps of the wrong shape or with
# values out of range are counted skips; a file over the size limit is
# left out with a note.
A=$PROFDB_CORPUS/Ascend-msinsight/test/data/pytorch/text
$PROFDB ingest -q --db a.db --run l1 "$A/level1" || exit 1
$PROFDB ingest -q --db a.db --run l2 "$A/level2" || exit 1
$PROFDB collectives --db a.db --format csv --unit ns >r.csv || exit 1
$PROFDB collectives --db a.db --format csv --unit ns --by link >l.csv || exit 1
$PROFDB collectives --db a.db --format csv --unit ns --by step >s.csv || exit 1
$PROFDB sql --db a.db --format csv "SELECT r.name, o.rank, o.step, o.op_name, o.start_ns, o.elapse_ns,
  o.transit_ns, o.idle_ns FROM comm_op o JOIN run r ON r.id = o.run_id" >o.csv || exit 1
python3 - "$A" r.csv l.csv o.csv s.csv <<'PY' || exit 1
import csv, glob, json, os, sys
from decimal import Decimal, ROUND_HALF_UP
A = sys.argv[1]
exports = {"l1": ["level1/rank0_ascend_pt", "level1/rank1_ascend_pt"], "l2": ["level2/rank0_ascend_pt"]}
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print("MISMATCH:", what)
        bad += 1
def collective(name):
    n = name.lower()
    for pats, c in ((("reducescatter", "reduce_scatter"), "reduce_scatter"), (("allreduce", "all_reduce"), "all_reduce"),
                    (("allgather", "all_gather"), "all_gather"), (("alltoall", "all2all"), "all_to_all"),
                    (("broadcast",), "broadcast"), (("sendrecv",), "send_recv"), (("send",), "send"),
                    (("recv", "receive"), "recv"), (("reduce",), "reduce"), (("barrier",), "barrier")):
        if any(p in n for p in pats):
            return c
    return "other"
# exactly as written: the shortest repr of the float is the file's text
def scaled(v, exp):
    return int((Decimal(repr(v)) * 10 ** exp).quantize(Decimal(1), ROUND_HALF_UP))
def ms_ns(v):
    return scaled(v, 6)
def mb_bytes(v):
    return scaled(v, 6)
want, links, op_rows = {}, [], []
for run, dirs in exports.items():
    for d in dirs:
        top = os.path.join(A, d)
        info = glob.glob(os.path.join(top, "profiler_info_*.json"))[0]
        rank = int(os.path.basename(info)[len("profiler_info_"):-len(".json")])
        out = os.path.join(top, "ASCEND_PROFILER_OUTPUT")
        ops = {}
        for step, scopes in json.load(open(os.path.join(out, "communication.json"))).items():
            for scope, entries in scopes.items():
                for key, v in entries.items():
                    if key == "Total Op Info":
                        continue
                    name, group = key.rsplit("@", 1)
                    ops[(int(step[4:]), name)] = (group, v)
                    ti = v["Communication Time Info"]
                    op_rows.append((run, rank, int(step[4:]), name, scaled(ti["Start Timestamp(us)"], 3),
                                    ms_ns(ti["Elapse Time(ms)"]), ms_ns(ti["Transit Time(ms)"]), ms_ns(ti["Idle Time(ms)"])))
                    bw = v["Communication Bandwidth Info"]
                    intra = sum(bw[t]["Transit Size(MB)"] for t in ("HCCS", "PCIE", "SIO"))
                    check(abs(bw["SDMA"]["Transit Size(MB)"] - intra) < 1e-9, "%s SDMA = HCCS + PCIE + SIO" % key)
                    for t, b in bw.items():
                        if b["Transit Time(ms)"]:
                            check(abs(b["Transit Size(MB)"] / b["Transit Time(ms)"] - b["Bandwidth(GB/s)"]) < 1e-4,
                                  "%s %s Bandwidth = MB / ms" % (key, t))
        for row in csv.DictReader(open(os.path.join(out, "kernel_details.csv"), newline="")):
            if row["Accelerator Core"] not in ("HCCL", "COMMUNICATION"):
                continue
            group, v = ops[(int(row["Step Id"]), row["Name"])]
            ti, bw = v["Communication Time Info"], v["Communication Bandwidth Info"]
            w = want.setdefault((run, collective(row["Name"]), group, rank),
                                {"calls": 0, "total": 0, "bytes": 0, "tns": 0, "wait": 0, "sync": 0, "ops": 0})
            w["calls"] += 1
            w["ops"] += 1
            w["total"] += round(float(row["Duration(us)"]) * 1000)
            w["bytes"] += sum(mb_bytes(bw[t]["Transit Size(MB)"]) for t in ("RDMA", "SDMA"))
            w["tns"] += sum(ms_ns(bw[t]["Transit Time(ms)"]) for t in ("RDMA", "SDMA"))
            w["wait"] += ms_ns(ti["Wait Time(ms)"])
            w["sync"] += ms_ns(ti["Synchronization Time(ms)"])
        mf = os.path.join(out, "communication_matrix.json")
        for step, scopes in (json.load(open(mf)).items() if os.path.exists(mf) else ()):
            for scope, mats in scopes.items():
                for key, ls in mats.items():
                    matrix_op, group = key.rsplit("@", 1)
                    for k, l in ls.items():
                        src, dst = k.split("-")
                        links.append((run, rank, int(step[4:]), scope, group, matrix_op, int(src), int(dst),
                                      l["Transport Type"], l.get("Op Name", ""), mb_bytes(l["Transit Size(MB)"]),
                                      ms_ns(l["Transit Time(ms)"]), l["Bandwidth(GB/s)"]))
got = {(r["run"], r["collective"], r["process_group"], int(r["rank"])): r for r in csv.DictReader(open(sys.argv[2]))}
check(set(got) == set(want), "rows: profdb %s, reference %s" % (sorted(got), sorted(want)))
for key, w in sorted(want.items()):
    g = got.get(key)
    if not g:
        continue
    gbps = w["bytes"] / w["tns"]
    check(int(g["calls"]) == w["calls"] and int(float(g["total_ns"])) == w["total"], "%s calls, total" % (key,))
    check(int(g["transit_bytes"]) == w["bytes"], "%s transit_bytes %s, want %d" % (key, g["transit_bytes"], w["bytes"]))
    check(abs(float(g["transit_gbps"]) - gbps) < 1e-6 * gbps, "%s transit_gbps %s, want %r" % (key, g["transit_gbps"], gbps))
    for col in ("wait", "sync"):
        check(int(float(g[col + "_ns"])) == w[col], "%s %s %s, want %d" % (key, col, g[col + "_ns"], w[col]))
    check(g["bytes"] == g["algbw_gbps"] == g["group_size"] == "", "%s: no message size on Ascend" % (key,))
    print("%s %s group %s rank %d: %d calls, transit_bytes %d, transit_gbps %.4f, wait %.3f ms, sync %.3f ms"
          % (key[0], key[1], key[2], key[3], w["calls"], w["bytes"], gbps, w["wait"] / 1e6, w["sync"] / 1e6))
rows = []
for r in csv.DictReader(open(sys.argv[3])):
    rows.append((r["run"], int(r["rank"]), int(r["step"]), r["scope"], r["process_group"], r["matrix_op"],
                 int(r["src_rank"]), int(r["dst_rank"]), r["transport"], r["op_name"], int(r["bytes"]),
                 int(float(r["transit_ns"])), float(r["bandwidth_gbps"])))
check(sorted(rows) == sorted(links), "--by link: %d rows, reference %d" % (len(rows), len(links)))
print("--by link: %d links of %d matrices, %d bytes in all" % (
    len(links), len({l[:6] for l in links}), sum(l[10] for l in links)))
got_ops = sorted((r[0], int(r[1]), int(r[2]), r[3]) + tuple(int(x) for x in r[4:])
                 for r in list(csv.reader(open(sys.argv[4])))[1:])
check(got_ops == sorted(op_rows), "comm_op start / elapse / transit / idle: %s, want %s" % (got_ops, sorted(op_rows)))
print("comm_op: %d ops, times exact to the ns as written (first start %d ns)" % (len(op_rows), min(o[4] for o in op_rows)))
# --by step: wait_max = the largest rank's summed Wait Time of the step
# (one step, one collective per run here)
for r in csv.DictReader(open(sys.argv[5])):
    waits = [w["wait"] for k, w in want.items() if k[0] == r["run"] and k[1] == r["collective"]]
    check(int(float(r["wait_max_ns"])) == max(waits), "%s step %s wait_max %s, want %d" % (r["run"], r["step"], r["wait_max_ns"], max(waits)))
    print("%s step %s %s: wait_max %.6f ms of %d ranks" % (r["run"], r["step"], r["collective"], max(waits) / 1e6, len(waits)))
sys.exit(bad)
PY
# diff --table collectives compares Ascend calls by their transit
# bandwidth: rank 0 against rank 1 of Level1 (one group), the totals
# 15.6539 and 15.5016 GB/s printed above.
$PROFDB ingest -q --db d.db --run r0 "$A/level1/rank0_ascend_pt" || exit 1
$PROFDB ingest -q --db d.db --run r1 "$A/level1/rank1_ascend_pt" || exit 1
$PROFDB diff --db d.db --table collectives --format csv r0 r1 || exit 1
SCHEMA="$HERE/../../schemas/collectives.schema.json"
$PROFDB collectives --db a.db --run l1 --format json >r.json || exit 1
python3 "$HERE/json_schema_check.py" "$SCHEMA" r.json || exit 1
$PROFDB collectives --db a.db --run l1 --rank 1 --by link --name '*_0_1' --format json >l.json || exit 1
python3 "$HERE/json_schema_check.py" "$SCHEMA" l.json || exit 1
cat l.json
# Hostile files, in a copy of the rank 0 export.
cp -r "$A/level1/rank0_ascend_pt" h
C=h/ASCEND_PROFILER_OUTPUT/communication.json
printf '{"step1": {"collective": {"a@1": {"Communication Time Info": {"Elapse Time(ms)": 1}' >"$C"
$PROFDB ingest -q --db a.db --run h h 2>&1
echo "exit $?"
$PROFDB sql --db a.db --format csv "SELECT (SELECT count(*) FROM run), (SELECT count(*) FROM comm_op)"
cat >"$C" <<'JSON'
{"step1": {"collective": {
  "hcom_allReduce__586_0_1@7": {"Communication Time Info": {"Elapse Time(ms)": -1}},
  "b@7": 5,
  "c@7": {"Communication Time Info": {"Elapse Time(ms)": 1e300}},
  "d@7": {"Communication Time Info": {"Wait Time(ms)": 2},
          "Communication Bandwidth Info": {"HCCS": {"Transit Size(MB)": "x"}, "SDMA": [1]}},
  "e@7": {"Communication Time Info": {"Wait Time(ms)": 2.5, "Synchronization Time(ms)": 0.5},
          "Communication Bandwidth Info": {"RDMA": {"Transit Size(MB)": 1.5, "Transit Time(ms)": 0.5}}},
  "Total Op Info": {}},
 "p2p": []},
 "other": 3}
JSON
printf '{"step1": {"collective": {"allreduce-total@7": {"0-1": {"Transit Size(MB)": -2}, "0-x": {}, "0->2": {"Transport Type": "HCCS", "Transit Size(MB)": 1}}, "m@7": 4}}}' \
  >h/ASCEND_PROFILER_OUTPUT/communication_matrix.json
$PROFDB ingest --db a.db --run h h >ingest.txt 2>&1 || exit 1
grep -A1 'communication' ingest.txt
$PROFDB sql --db a.db --format csv "SELECT op_name, group_name, step, wait_ns, sync_ns FROM comm_op WHERE run_id = (SELECT id FROM run WHERE name = 'h')"
$PROFDB sql --db a.db --format csv "SELECT src_rank, dst_rank, transport, bytes FROM comm_link WHERE run_id = (SELECT id FROM run WHERE name = 'h')"
PROFDB_COMM_MAX_BYTES=100 $PROFDB ingest --db a.db --run big h 2>&1 | grep 'larger than'
