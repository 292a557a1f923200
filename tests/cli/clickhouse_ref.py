#!/usr/bin/env python3
"""Independent checks for the ClickHouse tests (no profdb code).

  clickhouse_ref.py same A.db B.db [RUN...]
      every row of every table of the runs (all when none named) is the
      same in A and B: str ids resolved to their text, run and source ids
      to the run name and file path, row ids left out, floats compared
      exactly.  Prints one line per table; exit 1 on a difference.
  clickhouse_ref.py counts HTTP_URL DATABASE A.db [B.db...]
      the rows of each table on the server equal the rows in the local
      files together: those of runs with a run row (what readers see) and
      all rows (so rows left by a failed push would show).
  clickhouse_ref.py dict HTTP_URL DATABASE A.db [RUN...]
      schema 4 layout: for each run of A.db (those named), kernel_str holds
      exactly the distinct texts its kernels name (the str values of the
      kernel columns that reference str), under ids 1..n, and every text
      column of kernel_ids is a UInt32.
  clickhouse_ref.py apply HTTP_URL DATABASE FILE.sql...
      send each statement of the files (';' at a line end) to the server,
      recording each file's version in profdb_schema, as profdb did before.
"""
import collections
import sqlite3
import sys
import urllib.request

TABLES = ["run", "run_meta", "source_file", "source_skip", "run_note", "kernel", "op",
          "launch", "step", "step_metric", "kernel_name_stat", "kernel_step_stat"]


def str_columns(db, table):
    return {fk[3] for fk in db.execute("PRAGMA foreign_key_list(%s)" % table) if fk[2] == "str"}


def rows(db, table, runs):
    cols = [c[1] for c in db.execute("PRAGMA table_info(%s)" % table)]
    strs = str_columns(db, table)
    text = dict(db.execute("SELECT id, value FROM str"))
    run_name = dict(db.execute("SELECT id, name FROM run"))
    src = {i: (p, r) for i, p, r in db.execute("SELECT id, path, role FROM source_file")}
    src_run = dict(db.execute("SELECT id, run_id FROM source_file"))
    out = []
    for row in db.execute("SELECT * FROM %s" % table):
        rec = dict(zip(cols, row))
        rid = rec.get("run_id", rec.get("id") if table == "run" else None)
        if table == "source_skip":
            rid = src_run[rec["source_id"]]
        if runs and run_name[rid] not in runs:
            continue
        vals = []
        for c in cols:
            v = rec[c]
            if c == "id" and table in ("run", "kernel", "op", "source_file"):
                continue
            if c == "run_id":
                v = run_name[v]
            elif c == "source_id":
                v = src[v]
            elif c in strs and v is not None:
                v = text[v]
            vals.append((c, type(v).__name__, v))
        out.append(tuple(vals))
    return out


def same(a, b, runs):
    da, db_ = sqlite3.connect(a), sqlite3.connect(b)
    bad = 0
    for t in TABLES:
        ra, rb = rows(da, t, runs), rows(db_, t, runs)
        ca, cb = collections.Counter(ra), collections.Counter(rb)
        if ca == cb:
            print("%s: %d rows equal" % (t, len(ra)))
            continue
        bad = 1
        print("%s: %d rows vs %d differ" % (t, len(ra), len(rb)))
        print("  only in the first:", list((ca - cb).elements())[:1])
        print("  only in the second:", list((cb - ca).elements())[:1])
    return bad


def ch(url, db, sql):
    req = urllib.request.Request(url + "?database=" + db, data=sql.encode())
    with urllib.request.urlopen(req) as r:
        return r.read().decode()


def counts(url, database, files):
    bad = 0
    for t in TABLES:
        local = 0
        for f in files:
            local += sqlite3.connect(f).execute("SELECT count(*) FROM %s" % t).fetchone()[0]
        if t == "run":
            visible = total = int(ch(url, database, "SELECT count() FROM run"))
        else:
            visible = int(ch(url, database,
                             "SELECT count() FROM %s WHERE run_id GLOBAL IN (SELECT id FROM run)" % t))
            total = int(ch(url, database, "SELECT count() FROM %s" % t))
        ok = "ok" if local == visible == total else "DIFFER"
        bad |= ok != "ok"
        print("%s: local %d, server %d (all %d) %s" % (t, local, visible, total, ok))
    return bad


def dict_check(url, database, path, runs):
    db = sqlite3.connect(path)
    strs = sorted(str_columns(db, "kernel"))
    bad = 0
    for rid, name in db.execute("SELECT id, name FROM run ORDER BY id"):
        if runs and name not in runs:
            continue
        texts = set()
        for c in strs:
            texts |= {v for (v,) in db.execute(
                "SELECT s.value FROM kernel k JOIN str s ON s.id = k.%s WHERE k.run_id = ?" % c, (rid,))}
        lit = "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"
        got = ch(url, database, "SELECT id, text FROM kernel_str WHERE run_id = "
                 "(SELECT id FROM run WHERE name = %s) ORDER BY id FORMAT JSONCompact" % lit)
        import json
        rows = json.loads(got)["data"]
        ids = [int(r[0]) for r in rows]
        ok = ids == list(range(1, len(texts) + 1)) and {r[1] for r in rows} == texts
        bad |= not ok
        print("%s: %d texts, ids 1..%d %s" % (name, len(texts), len(ids), "ok" if ok else "DIFFER"))
    types = ch(url, database, "SELECT name, type FROM system.columns WHERE database = currentDatabase()"
               " AND table = 'kernel_ids' AND name LIKE '%_id' AND name != 'run_id'"
               " AND name NOT IN ('task_id', 'model_id', 'context_id', 'external_id') FORMAT TSV")
    cols = dict(line.split("\t") for line in types.splitlines())
    want = {c for c in strs}
    ok = set(cols) == want and set(cols.values()) == {"UInt32"}
    bad |= not ok
    print("kernel_ids: %d text columns as UInt32 %s" % (len(cols), "ok" if ok else "DIFFER %r" % cols))
    return bad


def apply(url, database, files):
    ch(url, "default", "CREATE DATABASE " + database)
    ch(url, database, "CREATE TABLE profdb_schema (version UInt32, applied DateTime DEFAULT now())"
       " ENGINE = MergeTree ORDER BY version")
    for f in files:
        for stmt in open(f).read().split(";\n"):
            if any(l.strip() and not l.strip().startswith("--") for l in stmt.splitlines()):
                ch(url, database, stmt)
        version = int(f.split("/")[-1][:3])
        ch(url, database, "INSERT INTO profdb_schema (version) VALUES (%d)" % version)
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "dict":
        sys.exit(dict_check(sys.argv[2], sys.argv[3], sys.argv[4], set(sys.argv[5:])))
    if sys.argv[1] == "apply":
        sys.exit(apply(sys.argv[2], sys.argv[3], sys.argv[4:]))
    if sys.argv[1] == "same":
        sys.exit(same(sys.argv[2], sys.argv[3], set(sys.argv[4:])))
    sys.exit(counts(sys.argv[2], sys.argv[3], sys.argv[4:]))
