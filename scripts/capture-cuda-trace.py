#!/usr/bin/env python3
"""Capture two small, real torch.profiler CUDA traces for testdata/kineto_cuda/.

Run on a machine with a CUDA GPU and PyTorch 2.x:

    python3 scripts/capture-cuda-trace.py OUTDIR

It writes (the two traces gzipped):
- train.pt.trace.json.gz: three profiled steps (ProfilerStep#2..#4) of a small MLP's training
  loop (forward, backward, SGD step), with shapes recorded;
- matmul_bench.pt.trace.json.gz: an operator benchmark, a bf16 4096^3 matmul with 3 warmup
  repeats and 10 profiled repeats, one ProfilerStep per repeat;
- key_averages.json: torch's own aggregation of each trace (prof.key_averages()), per run and
  event name: count, self and total device time and self CPU time in microseconds, as torch
  computes them, and the device type (CPU rows: ops, annotations and CUDA launch calls; CUDA
  rows: kernels, memsets and the gpu_user_annotation copies of the annotations).
  The tests compare profdb against this and against a Python sum over the JSON, neither of
  which shares code with profdb;
- env.json: torch, CUDA and GPU versions, for testdata/README.md.

The inputs are seeded so the kernels launched are the same from run to run; their durations
are the GPU's own and differ each time, which is why the references are captured with them.
Step numbers count every prof.step(), the unrecorded wait/warmup steps too: hence #2..#4 and
#3..#12.  torch warns "Profiler clears events at the end of each cycle": expected, each file
is one cycle.  The files in testdata/kineto_cuda/ come from one run of this script
(testdata/README.md).
"""
import gzip
import json
import os
import shutil
import sys

import torch
from torch.profiler import ProfilerActivity, profile, record_function, schedule

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
ACTIVITIES = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
refs = {}


def averages(prof):
    rows = []
    for e in prof.key_averages():
        rows.append({
            "name": e.key,
            "count": e.count,
            "self_device_us": float(getattr(e, "self_device_time_total", 0.0)),
            "device_us": float(getattr(e, "device_time_total", 0.0)),
            "self_cpu_us": float(e.self_cpu_time_total),
            "device_type": str(e.device_type),
        })
    return rows


def exporter(stem):
    def ready(prof):
        plain = os.path.join(OUT, stem + ".pt.trace.json")
        prof.export_chrome_trace(plain)
        with open(plain, "rb") as f, gzip.open(plain + ".gz", "wb", 9) as g:
            shutil.copyfileobj(f, g)
        os.remove(plain)
        refs[stem] = averages(prof)
    return ready


def train():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 512), torch.nn.LayerNorm(512)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(64, 512, device="cuda")
    y = torch.randn(64, 512, device="cuda")
    with profile(activities=ACTIVITIES, record_shapes=True,
                 schedule=schedule(wait=1, warmup=1, active=3),
                 on_trace_ready=exporter("train")) as prof:
        for _ in range(5):
            with record_function("forward"):
                loss = torch.nn.functional.mse_loss(model(x), y)
            with record_function("backward"):
                loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            prof.step()
    torch.cuda.synchronize()


def matmul_bench():
    torch.manual_seed(1)
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    with profile(activities=ACTIVITIES, record_shapes=True,
                 schedule=schedule(wait=0, warmup=3, active=10),
                 on_trace_ready=exporter("matmul_bench")) as prof:
        for _ in range(13):
            torch.matmul(a, b)
            torch.cuda.synchronize()
            prof.step()


train()
matmul_bench()
with open(os.path.join(OUT, "key_averages.json"), "w") as f:
    json.dump(refs, f, indent=1, sort_keys=True)
with open(os.path.join(OUT, "env.json"), "w") as f:
    json.dump({"torch": torch.__version__, "cuda": torch.version.cuda,
               "gpu": torch.cuda.get_device_name(0),
               "capability": list(torch.cuda.get_device_capability(0))}, f, indent=1)
print(open(os.path.join(OUT, "env.json")).read())
for name in sorted(os.listdir(OUT)):
    print(name, os.path.getsize(os.path.join(OUT, name)))
