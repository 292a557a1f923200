#!/usr/bin/env python3
"""diff_gen.py DB - write generated runs for the diff/report CLI tests
straight into a profdb store (the schema's tables; DB must exist with the
schema, e.g. made by 'profdb sql --write'), and print the expected
per-repeat time of every kernel of every run, computed here.

Runs (seeded, so every run of the test sees the same numbers):
  base      20 steps, kernels A..D, each launched twice per step, +-2% noise
  slow      like base, B_softmax durations x1.3, other noise (seed 2)
  noise     like base, noise only (seed 3)
  one_a     1 step of base-like data;  one_b: 1 step with B x1.3
  meta_h100 like base (seed 4) but recorded on another device, 10 steps
"""
import random
import sqlite3
import sys

KERNELS = [("A_gemm", 1000), ("B_softmax", 5000), ("C_attn", 20000), ("D_copy", 300)]
CALLS = 2


def add_run(db, name, seed, steps, scale=None, device=None, step0=1):
    rng = random.Random(seed)
    scale = scale or {}
    cur = db.execute("INSERT INTO run(name, source_path, format, ingested_at, repeats,"
                     " repeats_source, ranks, profdb_version) VALUES (?, '/gen', 'kineto',"
                     " '2024-01-01T00:00:00Z', ?, 'steps', 1, 'test')", (name, steps))
    run_id = cur.lastrowid
    if device:
        db.execute("INSERT INTO run_meta(run_id, rank, key, value) VALUES (?, NULL,"
                   " 'deviceProperties', ?)", (run_id, '[{"id": 0, "name": "%s"}]' % device))
    totals = {k: 0 for k, _ in KERNELS}
    for i in range(steps):
        step = step0 + i
        t0 = step * 10_000_000
        t = t0
        db.execute("INSERT INTO step(run_id, rank, step, start_ns, end_ns) VALUES (?, 0, ?, ?, ?)",
                   (run_id, step, t0, t0 + 1_000_000 + rng.randrange(20000)))
        for kname, base in KERNELS:
            nid = str_id(db, kname)
            for _ in range(CALLS):
                dur = int(round(base * scale.get(kname, 1.0) * (1 + 0.02 * (2 * rng.random() - 1))))
                db.execute("INSERT INTO kernel(run_id, rank, step, name_id, base_id, kind,"
                           " start_ns, dur_ns) VALUES (?, 0, ?, ?, ?, 0, ?, ?)",
                           (run_id, step, nid, nid, t, dur))
                t += dur + 100
                totals[kname] += dur
    for kname, _ in KERNELS:
        print("%s %s %.3f" % (name, kname, totals[kname] / steps / 1000))


def str_id(db, s):
    row = db.execute("SELECT id FROM str WHERE value = ?", (s,)).fetchone()
    if row:
        return row[0]
    return db.execute("INSERT INTO str(value) VALUES (?)", (s,)).lastrowid


def main():
    db = sqlite3.connect(sys.argv[1])
    add_run(db, "base", 1, 20, device="NVIDIA A100-SXM4-80GB")
    add_run(db, "slow", 2, 20, {"B_softmax": 1.3}, device="NVIDIA A100-SXM4-80GB")
    add_run(db, "noise", 3, 20, device="NVIDIA A100-SXM4-80GB")
    add_run(db, "one_a", 5, 1, device="NVIDIA A100-SXM4-80GB")
    add_run(db, "one_b", 6, 1, {"B_softmax": 1.3}, device="NVIDIA A100-SXM4-80GB")
    add_run(db, "meta_h100", 4, 10, device="NVIDIA H100 80GB HBM3")
    db.commit()


main()
