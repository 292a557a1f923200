#!/usr/bin/env python3
"""make_db.py - build db/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db
from csv/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv, in the
torch_npu SQLite schema as found in the corpus (FORMATS.md 4.1): the same
capture in its DB form, so a test can compare the two ingests row by row.

Run from anywhere: python3 testdata/ascend_db/make_db.py
The mapping is the one torch_npu/msprof use (kernel_details is produced from
the same tables): compute rows -> TASK + COMPUTE_TASK_INFO (names, types,
shapes as STRING_IDS ids), times exact in ns (decimal text, never float),
communication rows -> COMMUNICATION_OP, PMU columns (after Context ID) ->
TASK_PMU_INFO long format, Step Id -> STEP_TIME spans.  A few non-kernel
TASK rows (EVENT_RECORD, SDMA) are added: they must not become kernels.
Columns are written in a different order from the real files on purpose,
with blockNum/mixBlockNum (the newer names) and a leftover migration table.
"""
import csv
import os
import sqlite3
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "csv/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv")
DST = os.path.join(HERE, "db/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db")
UINT32_MAX = 4294967295


def ns(text):
    """µs decimal text (maybe with the trailing TAB) -> int ns, exactly."""
    return int(Decimal(text.strip()) * 1000)


def main():
    with open(SRC, newline="") as f:
        rows = list(csv.reader(f))
    hdr, rows = rows[0], [r for r in rows[1:] if r]
    ix = {n: i for i, n in enumerate(hdr)}
    metrics = hdr[ix["Context ID"] + 1:]

    if os.path.exists(DST):
        os.remove(DST)
    db = sqlite3.connect(DST)
    db.executescript("""
        CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
        CREATE TABLE TASK (globalTaskId INTEGER PRIMARY KEY, startNs INTEGER, endNs INTEGER,
            deviceId INTEGER, connectionId INTEGER, globalPid INTEGER, taskType INTEGER,
            contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER, depth INTEGER);
        CREATE TABLE COMPUTE_TASK_INFO (globalTaskId INTEGER PRIMARY KEY, name INTEGER,
            opType INTEGER, taskType INTEGER, blockNum INTEGER, mixBlockNum INTEGER,
            inputFormats INTEGER, inputDataTypes INTEGER, inputShapes INTEGER,
            outputFormats INTEGER, outputDataTypes INTEGER, outputShapes INTEGER,
            attrInfo INTEGER, opState INTEGER, hf32Eligible INTEGER, waitNs INTEGER);
        CREATE TABLE _COMPUTE_TASK_INFO_old_20251014 (name INTEGER, globalTaskId INTEGER,
            block_dim INTEGER);
        CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);
        CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER,
            connectionId INTEGER, groupName INTEGER, opId INTEGER, waitNs INTEGER, opType INTEGER);
        CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
        CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
        CREATE TABLE META_DATA (name TEXT, value TEXT);
        INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0');
        INSERT INTO RANK_DEVICE_MAP VALUES (0, 0);
    """)
    ids = {}

    def sid(text):
        if text is None:
            return None
        if text not in ids:
            ids[text] = len(ids) + 1
            db.execute("INSERT INTO STRING_IDS VALUES (?, ?)", (ids[text], text))
        return ids[text]

    def opt(r, col):
        v = r[ix[col]].strip() if col in ix and ix[col] < len(r) else ""
        return None if v in ("", "N/A") else v

    def shape(r, col):
        v = opt(r, col)
        return None if v is None else v.strip('"')  # the CSV wraps shapes in quotes

    steps = {}
    gid = 0
    for r in rows:
        start = ns(r[ix["Start Time(us)"]])
        end = start + ns(r[ix["Duration(us)"]])
        wait = ns(r[ix["Wait Time(us)"]])
        step = opt(r, "Step Id")
        if step is not None:
            lo, hi = steps.get(int(step), (start, end))
            steps[int(step)] = (min(lo, start), max(hi, end))
        if r[ix["Accelerator Core"]] in ("HCCL", "COMMUNICATION"):
            db.execute("INSERT INTO COMMUNICATION_OP VALUES (?, ?, ?, NULL, ?, ?, ?, ?)",
                       (sid(r[ix["Name"]]), start, end, sid("group0"), gid, wait,
                        sid(r[ix["Type"]])))
            gid += 1
            continue
        ctx = opt(r, "Context ID")
        db.execute("INSERT INTO TASK VALUES (?, ?, ?, 0, NULL, 1, ?, ?, ?, ?, ?, 0)",
                   (gid, start, end, sid("KERNEL_AICORE"),
                    UINT32_MAX if ctx is None else int(ctx),
                    int(r[ix["Stream ID"]]), int(r[ix["Task ID"]]), int(r[ix["Model ID"]])))
        db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES"
                   " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
                   (gid, sid(r[ix["Name"]]), sid(r[ix["Type"]]), sid(r[ix["Accelerator Core"]]),
                    int(r[ix["Block Dim"]]), int(r[ix["Mix Block Dim"]]),
                    sid(opt(r, "Input Formats")), sid(opt(r, "Input Data Types")),
                    sid(shape(r, "Input Shapes")), sid(opt(r, "Output Formats")),
                    sid(opt(r, "Output Data Types")), sid(shape(r, "Output Shapes")),
                    sid(opt(r, "OP State")), sid(opt(r, "HF32 Eligible")), wait))
        db.execute("INSERT INTO _COMPUTE_TASK_INFO_old_20251014 VALUES (?, ?, 1)",
                   (sid(r[ix["Name"]]), gid))
        for m in metrics:
            v = opt(r, m)
            if v is not None:
                db.execute("INSERT INTO TASK_PMU_INFO VALUES (?, ?, ?)", (gid, sid(m), float(v)))
        gid += 1
        # a non-kernel task right after each compute task: never a kernel
        db.execute("INSERT INTO TASK VALUES (?, ?, ?, 0, NULL, 1, ?, ?, 2, ?, ?, 0)",
                   (gid, end, end + 10, sid("EVENT_RECORD" if gid % 2 else "SDMA"),
                    UINT32_MAX, 100000 + gid, UINT32_MAX))
        gid += 1
    for step, (lo, hi) in sorted(steps.items()):
        db.execute("INSERT INTO STEP_TIME VALUES (?, ?, ?)", (step, lo, hi + 1))
    db.commit()
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    main()
