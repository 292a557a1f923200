# The analysis tables fit the terminal (issue 16 "Fit the terminal by
# importance"): at COLUMNS=80 and 200 every line of breakdown, collectives,
# idle, ranks, launches, flops, bandwidth and steps fits, notes and the
# hidden-columns line included (full kernel names listed under a table as
# [n] are the one exception: they are for copying).  At 80 the headline
# figures stay and the lesser ones go first, named in the hidden line;
# at 200 a table that fits shows every column.  Checked by python3 on the
# printed lines against each command's csv header.
cp "$PROFDB_TESTDATA/analyses/trace.json" "$PROFDB_TESTDATA/analyses/coll_args.json" .
cp "$PROFDB_TESTDATA/analyses/breakdown_kernel_details.csv" kernel_details.csv
$PROFDB ingest -q --db w.db --run kin trace.json || exit 1
$PROFDB ingest -q --db w.db --run coll coll_args.json || exit 1
$PROFDB ingest -q --db w.db --run asc kernel_details.csv || exit 1
export PROFDB_DB=w.db
cmds="breakdown|collectives|collectives --by step|idle|ranks|launches|launches --by stream|launches --by step|bandwidth|steps"
IFS='|'
for c in $cmds; do
  unset IFS
  n=$(echo "$c" | tr ' ' '_')
  $PROFDB $c --format csv 2>/dev/null | head -1 >"$n.csv"
  for w in 80 200; do COLUMNS=$w $PROFDB $c >"$n.$w.txt" 2>&1 || exit 1; done
  IFS='|'
done
unset IFS
python3 - <<'PY'
import re
# what each table must keep at 80 columns (its keys and headline figures)
keep = {
    "breakdown": ["run", "rank", "step", "busy", "compute", "communication", "idle"],
    "collectives": ["run", "collective", "calls", "total", "algbw_gbps", "busbw_gbps"],
    "collectives_--by_step": ["run", "step", "collective", "skew", "waited_on_rank"],
    "idle": ["run", "rank", "stream", "idle", "host_wait"],
    "ranks": ["run", "rank", "compute", "communication", "straggler"],
    "launches": ["run", "launch", "name", "calls", "start_delay_median"],
    "launches_--by_stream": ["run", "rank", "stream", "queue_mean"],
    "launches_--by_step": ["run", "rank", "step", "host_wait", "bound"],
    "bandwidth": ["run", "direction", "bytes", "gbps"],
    "steps": ["run", "rank", "step", "busy", "top_kernel"],
}
for n, must in keep.items():
    csv_cols = open(n + ".csv").read().strip().split(",")
    bare = [re.sub(r"_(us|ns)$", "", c) for c in csv_cols]
    for w in (80, 200):
        lines = open("%s.%d.txt" % (n, w)).read().splitlines()
        widest = max(len(l) for l in lines if not re.match(r"\[\d+\] ", l))
        assert widest <= w, (n, w, widest)
        # header: names, a time unit for a csv *_us column, (%) for *_pct
        shown = []
        for h in re.split(r"\s{2,}", lines[0].strip()):
            m = re.match(r"(.*) \((us|ns|ms|s|%)\)$", h)
            shown.append(h if not m else m.group(1) + ("_pct" if m.group(2) == "%" else ""))
        # named hidden, or empty in every row (its own line, issue 35)
        hidden = " ".join(l.strip() for l in lines if l.startswith("(hidden") or l.startswith("(empty") or l.startswith(" "))
        empty = " ".join(l for l in lines if l.startswith("(empty")).replace(",", " ").replace(")", " ").split()
        if w == 80:
            for k in must:
                # a headline column empty in every row is named, not shown
                assert k in shown or k in empty, (n, k, shown)
        for c, b in zip(csv_cols, bare):
            if b not in shown and c not in shown:
                assert b in hidden or c in hidden, (n, w, c, "neither shown nor named hidden")
        print("%s COLUMNS=%d: widest %d; %d of %d columns: %s" % (n.replace("_", " "), w, widest,
              len(shown), len(csv_cols), ", ".join(shown)))
PY
