#!/usr/bin/env python3
"""py_loader.py - the notebook way, as a reference for bench/run: json.load a
Kineto trace (plain or gzip), insert its device events into SQLite with
sqlite3, and GROUP BY kernel name.  usage: py_loader.py TRACE DB"""
import gzip
import json
import sqlite3
import sys

src, dbpath = sys.argv[1], sys.argv[2]
with open(src, "rb") as f:
    magic = f.read(2)
op = gzip.open if magic == b"\x1f\x8b" else open
with op(src, "rt") as f:
    data = json.load(f)
events = data["traceEvents"] if isinstance(data, dict) else data
db = sqlite3.connect(dbpath)
db.execute("CREATE TABLE kernel(name TEXT, cat TEXT, ts REAL, dur REAL)")
db.executemany("INSERT INTO kernel VALUES (?, ?, ?, ?)",
               ((e.get("name"), e.get("cat"), e.get("ts"), e.get("dur"))
                for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")))
db.commit()
rows = db.execute("SELECT name, count(*), sum(dur) FROM kernel GROUP BY name ORDER BY 3 DESC").fetchall()
print(len(rows), "kernels")
