#!/usr/bin/python3
# Origin: the profdb project's own input tools (tools/tile_trace.py beside the project),
# copied here so bench/run needs nothing outside the repository.
"""tile_trace.py - scale a real Kineto Chrome trace up by repeating its timeline N times.

Usage: tile_trace.py IN.json[.gz] N OUT.json[.gz]

Copy k (0..N-1) of every non-metadata event is shifted by k*(span+1000us) in time; its
args "External id" / "correlation" / "Python id" and flow-event "id" are offset by k*(max+1)
so they stay unique and flow links (s/f ac2g pairs, kernel<->runtime correlation) stay
consistent; ProfilerStep#S becomes ProfilerStep#(S + k*nsteps).  "M" metadata events, the
"Trace" span and "i" instants are written once ("Trace" is stretched over the whole result).
Top-level keys (schemaVersion, deviceProperties, distributedInfo, ...) are kept.
Used to make ~300 MB GPU traces (with real CUDA kernel events) from HTA's real test traces,
e.g. tests/data/trace_diff/control/control.json.gz (34.8 MB raw, 109k events) x9 -> ~313 MB.
"""
import gzip
import json
import re
import sys


def main():
    src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    op = gzip.open if src.endswith(".gz") else open
    with op(src, "rt") as f:
        d = json.load(f)
    ev = d["traceEvents"]
    once = [e for e in ev if e.get("ph") in ("M", "i") or e.get("cat") == "Trace"]
    rep = [e for e in ev if not (e.get("ph") in ("M", "i") or e.get("cat") == "Trace")]
    xs = [e for e in rep if isinstance(e.get("ts"), (int, float))]
    lo = min(e["ts"] for e in xs)
    hi = max(e["ts"] + (e.get("dur") or 0) for e in xs)
    shift = int(hi - lo) + 1000
    idmax = 0
    for e in rep:
        a = e.get("args") or {}
        for k in ("External id", "correlation", "Python id"):
            v = a.get(k)
            if isinstance(v, int):
                idmax = max(idmax, v)
        if isinstance(e.get("id"), int):
            idmax = max(idmax, e["id"])
    idoff = idmax + 1
    step_re = re.compile(r"^ProfilerStep#(\d+)$")
    steps = sorted(int(m.group(1)) for e in rep
                   if (m := step_re.match(str(e.get("name", "")))))
    nsteps = (steps[-1] - steps[0] + 1) if steps else 0

    opw = gzip.open if dst.endswith(".gz") else open
    count = 0
    with opw(dst, "wt") as f:
        f.write("{\n")
        for k, v in d.items():
            if k != "traceEvents":
                f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "traceEvents": [\n')
        first = True

        def put(e):
            nonlocal first, count
            f.write("  " if first else ",\n  ")
            f.write(json.dumps(e))
            first = False
            count += 1

        for c in range(n):
            for e in rep:
                e2 = dict(e)
                if isinstance(e2.get("ts"), (int, float)):
                    e2["ts"] = e["ts"] + c * shift
                if c:
                    if isinstance(e2.get("id"), int):
                        e2["id"] = e["id"] + c * idoff
                    a = e.get("args")
                    if a:
                        a2 = dict(a)
                        for key in ("External id", "correlation", "Python id"):
                            v = a2.get(key)
                            if isinstance(v, int) and v >= 0:
                                a2[key] = v + c * idoff
                        e2["args"] = a2
                    m = step_re.match(str(e.get("name", "")))
                    if m:
                        e2["name"] = f"ProfilerStep#{int(m.group(1)) + c * nsteps}"
                put(e2)
        for e in once:
            e2 = dict(e)
            if e2.get("cat") == "Trace" and isinstance(e2.get("dur"), (int, float)):
                e2["dur"] = e["dur"] + (n - 1) * shift
            put(e2)
        f.write("\n  ]\n}\n")
    print(f"{src}: {len(ev)} events, span {shift - 1000} us, {nsteps} steps -> "
          f"{dst}: {count} events")


if __name__ == "__main__":
    main()
