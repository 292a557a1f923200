#!/usr/bin/env python3
"""make_ranks.py - write ranks/rank{0..4}_ascend_pt, a hand-made 5-rank Ascend
text export for profdb ranks (run from this folder: python3 make_ranks.py).

Each rank, times in us from 1000 (the figures are worked out in README.md):
  step 1: compute A [0,10), allReduce [10,30): all ranks alike
  step 2: compute A [100, 100 + c), allReduce [100 + c, 135) with
          c = 10, 11, 12, 13, 30 for ranks 0..4: rank 4 computes longest and
          the others wait for it inside the collective
  step 3: compute A [200, 200 + d), allReduce [200 + d, 220) with
          d = 10, 10, 10, 10, 12: the median absolute deviation is 0, so the
          z-score falls back to the mean absolute deviation
No third-party content."""
import json
import os

C2 = [10, 11, 12, 13, 30]
C3 = [10, 10, 10, 10, 12]
HDR = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim"

for r, (c, d) in enumerate(zip(C2, C3)):
    top = "ranks/rank%d_ascend_pt" % r
    os.makedirs(top + "/ASCEND_PROFILER_OUTPUT", exist_ok=True)
    with open("%s/profiler_info_%d.json" % (top, r), "w") as f:
        json.dump({"config": {"common_config": {}}, "rank_id": r}, f)
        f.write("\n")
    rows = [HDR,
            "1,A,A,AI_CORE,1000.000\t,10,0,1",
            "1,hcom_allReduce__1_0_1,hcom_allReduce_,HCCL,1010.000\t,20,0,0",
            "2,A,A,AI_CORE,1100.000\t,%d,0,1" % c,
            "2,hcom_allReduce__2_0_1,hcom_allReduce_,HCCL,%d.000\t,%d,0,0" % (1100 + c, 35 - c),
            "3,A,A,AI_CORE,1200.000\t,%d,0,1" % d,
            "3,hcom_allReduce__3_0_1,hcom_allReduce_,HCCL,%d.000\t,%d,0,0" % (1200 + d, 20 - d)]
    with open(top + "/ASCEND_PROFILER_OUTPUT/kernel_details.csv", "w") as f:
        f.write("\n".join(rows) + "\n")
