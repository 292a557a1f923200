#!/usr/bin/env python3
"""make.py - writes base.json and new.json, the two hand-made runs of
tests/cli/diff_tables.sh (README.md here has every expected figure).

One rank, four steps of 1000 us.  Step s (s = 1..4, index i = s - 1) starts at
1000 s; its compute kernel runs from 1000 s for 40 + i us, then the all_reduce
(1,000,000 Float elements = 4,000,000 bytes, group of 4) runs back to back for
20 + i us (base) or 40 + 2 i us (new).  new.json also has an all_gather in
process group 1 after the last step, launched by no runtime call (no step)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
AR = {"Collective name": "allreduce", "In msg nelems": 1000000, "Out msg nelems": 1000000,
      "Group size": 4, "dtype": "Float", "Process Group Name": "0",
      "Process Group Description": "default_pg", "Process Group Ranks": "[0, 1, 2, 3]"}


def trace(comm_dur, extra):
    ev, corr = [], 0
    for i in range(4):
        s = 1000 * (i + 1)
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (i + 1),
                   "pid": 1, "tid": 1, "ts": s - 100, "dur": 1000, "args": {}})
        for name, start, dur, args in (("gemm_kernel", s, 40 + i, {}),
                                       ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", s + 40 + i,
                                        comm_dur(i), AR)):
            corr += 1
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                       "tid": 1, "ts": s - 50 + corr, "dur": 1, "args": {"correlation": corr}})
            a = {"device": 0, "stream": 7, "correlation": corr}
            a.update(args)
            ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": start,
                       "dur": dur, "args": a})
    ev += extra
    return {"schemaVersion": 1, "traceEvents": ev}


AG = {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL", "pid": 0, "tid": 7,
      "ts": 6000, "dur": 10, "args": {"device": 0, "stream": 7, "Collective name": "allgather",
                                      "In msg nelems": 250000, "Out msg nelems": 1000000,
                                      "Group size": 4, "dtype": "Float", "Process Group Name": "1",
                                      "Process Group Description": "tp"}}
for name, doc in (("base.json", trace(lambda i: 20 + i, [])),
                  ("new.json", trace(lambda i: 40 + 2 * i, [AG]))):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=0)
        f.write("\n")
