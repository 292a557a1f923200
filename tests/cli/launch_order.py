"""launch_order.py gen OUT | check TRACE CSV - the launch window of
tests/cli/launch_order.sh, computed apart from profdb: launches leave a
min-heap of 16 384 by (correlation, arrival) as later ones come, the rest
in order at the end."""
import csv
import heapq
import json
import sys

WINDOW = 16384


def gen(out):
    ev = [{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 10**6}]
    calls = [(1, 10**7)]  # (tid, correlation): a far correlation first
    a = [c for c in range(2, 20002) if c % 10 != 0]  # thread 1: 18 000
    b = [c for c in range(2, 20002) if c % 10 == 0]  # thread 2: 2 000, listed after
    calls += [(1, c) for c in a] + [(2, c) for c in b][:-1]
    for i, (tid, c) in enumerate(calls):
        ts = 10 + c * 10 if c < 10**7 else 5
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": tid,
                   "ts": ts, "dur": 2, "args": {"correlation": c}})
        ev.append({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": ts + 5, "dur": 1,
                   "args": {"correlation": c, "stream": 7, "device": 0}})
    json.dump({"schemaVersion": 1, "traceEvents": ev}, open(out, "w"))


def check(trace, got_csv):
    calls = [e["args"]["correlation"] for e in json.load(open(trace))["traceEvents"]
             if e.get("cat") == "cuda_runtime"]
    heap, want = [], []
    for i, c in enumerate(calls):
        heapq.heappush(heap, (c, i))
        if len(heap) > WINDOW:
            want.append(heapq.heappop(heap)[0])
    while heap:
        want.append(heapq.heappop(heap)[0])
    rows = list(csv.reader(open(got_csv)))
    got = [int(r[0]) for r in rows[1:]]
    late = sum(1 for x, y in zip(want, want[1:]) if y < x)
    if got != want:
        first = next(i for i, (x, y) in enumerate(zip(got + [None] * len(want), want)) if x != y)
        print(f"launch order differs at row {first + 1}: {got[first:first + 3]} vs {want[first:first + 3]}")
        sys.exit(1)
    print(f"{len(got)} launches in the window's order, {late} out of correlation order")


if __name__ == "__main__":
    gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2], sys.argv[3])
