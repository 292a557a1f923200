#!/usr/bin/env python3
"""idle_streams_ref.py - profdb idle over many streams, worked out apart
from profdb (it shares no code with it).

  gen OUT.json                write the trace: 5 000 streams x 10 kernels on
                              one device, launched from 4 host threads (one
                              kernel in 7 with no launch record)
  check OUT.json IDLE.csv     recompute every stream's figures from the
                              trace and compare with `profdb idle --format
                              csv` (integer microseconds: the trace's own)

Definitions (doc/analyses.md "Analyses", idle): per stream, a gap is the time
between the latest end of its earlier kernels and the next kernel's start;
host_wait is the part of it before the next kernel's launch call began;
other_stream the rest of it during which any kernel of another stream ran;
other what is left.  Here other_stream is computed the plain way: for every
stream, the union of all the other streams' kernels built from scratch
(for every 100th stream; the others through one union of all streams and
bisection, which the first check also vouches for).
"""
import bisect
import csv
import json
import random
import sys

STREAMS, PER = 5000, 10


def gen(path):
    rnd = random.Random(33)
    ev, corr = [], 0
    for s in range(STREAMS):
        for _ in range(PER):
            start = rnd.randrange(0, 2_000_000)
            dur = rnd.randrange(1, 100)
            corr += 1
            args = {"device": 0, "stream": 10 + s}
            if corr % 7:
                args["correlation"] = corr
                lead = rnd.randrange(0, 400)
                ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                           "tid": 1 + s % 4, "ts": start - lead, "dur": 1, "args": {"correlation": corr}})
            ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % (corr % 13), "pid": 0, "tid": 10 + s,
                       "ts": start, "dur": dur, "args": args})
    json.dump({"schemaVersion": 1, "traceEvents": ev}, open(path, "w"))


def union(ivs):
    out = []
    for a, b in sorted(ivs):
        if b <= a:
            continue
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def overlap_plain(u, a, b):
    return sum(max(0, min(b, y) - max(a, x)) for x, y in u if y > a and x < b)


def figures(path):
    ev = json.load(open(path))["traceEvents"]
    launch = {e["args"]["correlation"]: e["ts"] for e in ev if e["cat"] == "cuda_runtime"}
    streams = {}
    for e in ev:
        if e["cat"] == "kernel":
            streams.setdefault(e["args"]["stream"], []).append(
                (e["ts"], e["ts"] + e["dur"], launch.get(e["args"].get("correlation"))))
    every = union([(k[0], k[1]) for ks in streams.values() for k in ks])
    starts = [x for x, _ in every]
    before, acc = [], 0
    for x, y in every:
        before.append(acc)
        acc += y - x

    def busy(t):  # union length before t
        i = bisect.bisect_right(starts, t) - 1
        return 0 if i < 0 else before[i] + min(t, every[i][1]) - every[i][0]

    out = {}
    for n, (sid, ks) in enumerate(sorted(streams.items())):
        ks.sort()
        plain = union([(k[0], k[1]) for o, oks in streams.items() if o != sid for k in oks]) \
            if n % 100 == 0 else None
        end, idle, host, oth = ks[0][1], 0, 0, 0
        for s, e, ls in ks[1:]:
            if s > end:
                idle += s - end
                frm = end if ls is None or ls <= end else min(ls, s)
                host += frm - end
                o = busy(s) - busy(frm)
                if plain is not None and o != overlap_plain(plain, frm, s):
                    sys.exit("reference: the two ways disagree on stream %d" % sid)
                oth += o
            end = max(end, e)
        out[sid] = (len(ks), end - ks[0][0], idle, host, oth, idle - host - oth)
    return out


def check(trace, got_csv):
    want = figures(trace)
    rows = list(csv.DictReader(open(got_csv)))
    keys = ("kernels", "span_us", "idle_us", "host_wait_us", "other_stream_us", "other_us")
    got = {int(r["stream"]): tuple(int(float(r[k])) for k in keys) for r in rows}
    bad = [s for s in want if got.get(s) != want[s]]
    for s in bad[:5]:
        print("stream %d: profdb %s, reference %s" % (s, got.get(s), want[s]))
    extra = sorted(set(got) - set(want))
    totals = [sum(v[i] for v in want.values()) for i in range(6)]
    print("streams %d, rows %d, mismatches %d, extra %d" % (len(want), len(rows), len(bad), len(extra)))
    print("gaps with other-stream time in %d streams, host wait in %d" %
          (sum(1 for v in want.values() if v[4] > 0), sum(1 for v in want.values() if v[3] > 0)))
    print("totals idle %d = host_wait %d + other_stream %d + other %d" % tuple(totals[2:]))
    return 0 if not bad and not extra and len(rows) == len(want) else 1


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
