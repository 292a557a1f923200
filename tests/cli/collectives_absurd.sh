# profdb collectives on NCCL args no message can have: a negative element
# count, a + and - pair that would cancel, INT64_MAX: their sizes are left
# out at ingest and counted in a note (3 here), so bytes and bandwidth come
# from the one true call alone; and 4096 calls of 2^48 Double elements
# (2^51 bytes each, 2^63 in all): the total is past int64, so bytes is
# empty rather than saturated below its own average.  Worked by hand:
#   all_reduce: 4 calls of 1 us, group 2; one true call of 1000 Float =
#     4000 bytes: avg 4000, algbw 4000 B / 1000 ns = 4 GB/s, busbw x 2(2-1)/2 = 4
#   all_gather: 4096 calls of 1 us: avg 2^51 = 2251799813685248 B,
#     algbw 2^63 / 4096000 ns = 2251799813685.25 GB/s, busbw x 1/2 = 1125899906842.62
python3 - <<'PY'
import json
def k(ts, coll, n_in, n_out, dtype):
    name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL" if coll == "allreduce" else "ncclDevKernel_AllGather_RING_LL"
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": 1,
            "args": {"Collective name": coll, "In msg nelems": n_in, "Out msg nelems": n_out,
                     "Group size": 2, "dtype": dtype}}
ev = [k(10, "allreduce", 1000, 1000, "Float"), k(20, "allreduce", -1000, -1000, "Float"),
      k(30, "allreduce", -5, 5, "Float"), k(40, "allreduce", 9223372036854775807, 9223372036854775807, "Float")]
ev += [k(100 + 2 * i, "allgather", 2**48, 2**48, "Double") for i in range(4096)]
json.dump({"traceEvents": ev}, open("t.json", "w"))
PY
$PROFDB ingest --db c.db --run c t.json | grep 'note:' | sed 's|^ *||' || exit 1
$PROFDB collectives --db c.db --format json >c.json || exit 1
python3 - <<'PY'
import json
for r in json.load(open("c.json")):
    print(r["collective"], r["calls"], r["bytes"], r["avg_msg_bytes"], r["algbw_gbps"], r["busbw_gbps"])
PY
