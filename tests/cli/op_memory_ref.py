#!/usr/bin/env python3
"""Independent check of `profdb memory --ops --format csv` on an Ascend
operator_memory.csv (shares no code with profdb).

Per device and operator Name, read the way msprof-analyze reads the file:
a row of positive Size(KB) (1 KB = 1024 bytes) is an allocation, freed
when it has a Release Time(us); a negative size is a free of that many
bytes.  held: allocated, never released.  live at the peak: allocated by
the device's peak (the Allocation Time of the first row, in time order,
with the highest Allocation Total Allocated(MB)) and released after it or
never.  Rows with too few fields or a non-numeric size are skipped.

usage: op_memory_ref.py operator_memory.csv profdb_ops.csv
       op_memory_ref.py --modules npu_module_mem.csv profdb_memory.csv
The second form: per device and Component of npu_module_mem.csv, the
highest Total Reserved(KB) times 1024 against profdb memory's
peak_reserved_bytes of component module:<Component> (rows with a
non-numeric timestamp or size skipped).
"""
import csv
import sys
from decimal import Decimal


def us(text):
    text = text.strip()
    return Decimal(text) if text and text != "N/A" else None


def main(src, got_path):
    with open(src, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    need = max(col[c] for c in ("Name", "Size(KB)", "Allocation Time(us)", "Device Type")) + 1
    blocks = []
    for r in rows[1:]:
        if len(r) < need:
            continue
        try:
            size = Decimal(r[col["Size(KB)"]])
        except Exception:
            continue
        dev_type, _, dev_id = r[col["Device Type"]].rpartition(":")
        total = r[col["Allocation Total Allocated(MB)"]].strip()
        blocks.append({
            "dev": (dev_type, dev_id), "name": r[col["Name"]],
            "bytes": int((size * 1024).to_integral_value()),
            "alloc": us(r[col["Allocation Time(us)"]]),
            "release": us(r[col["Release Time(us)"]]),
            "total": Decimal(total) if total else None,
        })
    peak = {}
    for b in sorted((b for b in blocks if b["total"] is not None and b["alloc"] is not None),
                    key=lambda b: b["alloc"]):
        if b["dev"] not in peak or b["total"] > peak[b["dev"]][0]:
            peak[b["dev"]] = (b["total"], b["alloc"])
    want = {}
    for b in blocks:
        k = (b["dev"], b["name"])
        w = want.setdefault(k, [0, 0, 0, 0, 0, 0])
        n = b["bytes"]
        if n > 0:
            w[0] += 1
            w[1] += n
            if b["release"] is not None:
                w[2] += 1
                w[3] += n
            else:
                w[4] += n
            p = peak.get(b["dev"])
            if p and b["alloc"] <= p[1] and (b["release"] is None or b["release"] > p[1]):
                w[5] += n
        elif n < 0:
            w[2] += 1
            w[3] += -n
    with open(got_path, newline="") as f:
        got = {((r["device_type"], r["device_id"]), r["op"]):
               [int(r[c]) for c in ("allocations", "allocated_bytes", "frees", "freed_bytes",
                                    "held_bytes", "live_at_peak_bytes")]
               for r in csv.DictReader(f)}
    if got != want:
        print("profdb:", sorted(got.items()), "\nref:   ", sorted(want.items()), file=sys.stderr)
        return 1
    print("op_memory_ref: %d operators on %d devices agree" % (len(want), len({k[0] for k in want})))
    return 0


def modules(src, got_path):
    want = {}
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            try:
                Decimal(r["Timestamp(us)"].strip())
                kb = Decimal(r["Total Reserved(KB)"])
            except Exception:
                continue
            dev_type, _, dev_id = r["Device"].rpartition(":")
            k = (dev_type, dev_id, "module:" + r["Component"])
            want[k] = max(want.get(k, 0), int((kb * 1024).to_integral_value()))
    with open(got_path, newline="") as f:
        got = {(r["device_type"], r["device_id"], r["component"]): int(r["peak_reserved_bytes"])
               for r in csv.DictReader(f) if r["component"].startswith("module:")}
    if got != want:
        print("profdb:", sorted(got.items()), "\nref:   ", sorted(want.items()), file=sys.stderr)
        return 1
    print("op_memory_ref: %d modules' reserved peaks agree" % len(want))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--modules":
        sys.exit(modules(sys.argv[2], sys.argv[3]))
    sys.exit(main(sys.argv[1], sys.argv[2]))
