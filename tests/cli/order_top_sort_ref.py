"""order_top_sort_ref.py FULL.csv SORTED.csv COL ASC TOP PER_RUN - check profdb's
--sort COL [--asc] --top N answer against the same command's unsorted csv,
ordered here from scratch: rows of a run stay together (runs in their first
order; with PER_RUN only), numbers largest first unless ASC, text A..Z,
empty cells last, ties in the unsorted order, at most TOP rows (per run
with PER_RUN; 0: all).  Prints one line:
rows kept, the first sorted values per run, and ok or MISMATCH."""
import csv
import sys

full, got, col, asc, top = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", int(sys.argv[5])
per_run = sys.argv[6] == "1"
rows = list(csv.DictReader(open(full, newline="")))
have = list(csv.DictReader(open(got, newline="")))
vals = [r[col] for r in rows if r[col] != ""]


def num(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


numeric = all(num(v) for v in vals)
runs = []
for r in rows:
    if "run" in r and r["run"] not in runs:
        runs.append(r["run"])
groups = [[r for r in rows if r["run"] == g] for g in runs] if per_run and "run" in rows[0] else [rows]
want = []
for g in groups:
    filled = [r for r in g if r[col] != ""]
    empty = [r for r in g if r[col] == ""]
    if numeric:
        filled.sort(key=lambda r: float(r[col]), reverse=not asc)
    else:
        filled.sort(key=lambda r: r[col])
    kept = filled + empty
    want += kept[:top] if top else kept
firsts = []
seen = set()
for r in have:
    k = r.get("run", "") if per_run else ""
    if k not in seen:
        seen.add(k)
        firsts.append(r[col] or "-")
    elif not per_run and len(firsts) < 3:
        firsts.append(r[col] or "-")
print("%d of %d rows, %s: %s: %s" % (len(have), len(rows), "first per run" if per_run else "first",
      " ".join(firsts),
      "ok" if have == want else "MISMATCH"))
