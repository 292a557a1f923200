#!/usr/bin/env python3
"""trim-trace-view.py IN OUT - the corpus's Ascend text trace_view.json files
without the events no reader or test uses, to keep testdata/ small.

Drops hardware counter samples (ph "C": Acc PMU, QoS, HBM, ...), Python
stack frames (cat "python_function"; profdb never counts them as ops) and the
"Call stack" argument of cpu_op events (a third of the file; operator_details.csv
keeps the same stacks).  Every other event (cpu_op, device events of "Ascend
Hardware", HCCL, CANN, Overlap Analysis, flows, metadata) is kept byte for
byte apart from that one argument, in its order, so totals over device,
communication or operator events are those of the original.
Standard library only; the output is a valid JSON array like the input.
"""
import json
import re
import sys


def spans(text):
    """(start, end) of each top-level element of the JSON array in text."""
    dec = json.JSONDecoder()
    i = text.index("[") + 1
    out = []
    while True:
        while text[i] in " \t\r\n,":
            i += 1
        if text[i] == "]":
            return out, i
        obj, end = dec.raw_decode(text, i)
        out.append((i, end, obj))
        i = end


# "Call stack": "..." (a JSON string) and the separator before it
CALL_STACK = re.compile(r', "Call stack": "(?:[^"\\]|\\.)*"')


def keep(e):
    return e.get("ph") != "C" and e.get("cat") != "python_function"


def main():
    src, dst = sys.argv[1], sys.argv[2]
    text = open(src, encoding="utf-8", newline="").read()
    elems, close = spans(text)
    sep = ", "
    if len(elems) > 1:  # the original's separator between elements
        sep = text[elems[0][1]:elems[1][0]]
    kept = [CALL_STACK.sub("", text[a:b]) for a, b, e in elems if keep(e)]
    body = text[:elems[0][0]] + sep.join(kept) + text[elems[-1][1]:]
    check = json.loads(body)  # still valid, and only the call stacks changed
    want = [e for _, _, e in elems if keep(e)]
    for e in want:
        (e.get("args") or {}).pop("Call stack", None)
    assert check == want
    with open(dst, "w", encoding="utf-8", newline="") as f:
        f.write(body)
    print(f"{dst}: kept {len(kept)} of {len(elems)} events", file=sys.stderr)


if __name__ == "__main__":
    main()
