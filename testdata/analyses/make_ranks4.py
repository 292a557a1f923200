#!/usr/bin/env python3
"""make_ranks4.py - write ranks4/rank{0..3}_ascend_pt, a hand-made 4-rank Ascend
text export where the late rank is known (run from this folder:
python3 make_ranks4.py).  Figures worked out in README.md "## ranks4/".

Each rank, times in us from 1000:
  step 1: compute A [0, c), allReduce [c, 200) with c = 100, 101, 106, 99:
          rank 2 arrives last, but only 5.5 us (5.5 % of the median
          collective time) after the median: below the straggler effect
  step 2: compute A [300, 300 + d), allReduce [300 + d, 400) with
          d = 20, 20, 40, 20: rank 2 arrives 20 us late; rank 1 also runs
          B [321, 399) under its collective, so it computes the most while
          it waits the longest
No third-party content."""
import json
import os

C1 = [100, 101, 106, 99]
C2 = [20, 20, 40, 20]
HDR = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim"

for r, (c, d) in enumerate(zip(C1, C2)):
    top = "ranks4/rank%d_ascend_pt" % r
    os.makedirs(top + "/ASCEND_PROFILER_OUTPUT", exist_ok=True)
    with open("%s/profiler_info_%d.json" % (top, r), "w") as f:
        json.dump({"config": {"common_config": {}}, "rank_id": r}, f)
        f.write("\n")
    rows = [HDR,
            "1,A,A,AI_CORE,1000.000\t,%d,0,1" % c,
            "1,hcom_allReduce__1_0_1,hcom_allReduce_,HCCL,%d.000\t,%d,0,0" % (1000 + c, 200 - c),
            "2,A,A,AI_CORE,1300.000\t,%d,0,1" % d]
    if r == 1:
        rows.append("2,B,B,AI_CORE,1321.000\t,78,0,1")
    rows.append("2,hcom_allReduce__2_0_1,hcom_allReduce_,HCCL,%d.000\t,%d,0,0" % (1300 + d, 100 - d))
    with open(top + "/ASCEND_PROFILER_OUTPUT/kernel_details.csv", "w") as f:
        f.write("\n".join(rows) + "\n")
