# ops tables fit the terminal (issue 16 "Fit the terminal by importance"):
# at 80, 120 and 200 columns (COLUMNS) every table line fits, except the
# notes; what goes first is host_avg, device_total, host_total,
# device_self (%), top_kernels; calls, host_self, its %, device_self and
# the name always stay.  Checked by python3 on the printed lines.
. "$HERE/query_setup.sh"
for w in 80 120 200; do
  COLUMNS=$w $PROFDB ops --run overlap >t$w.txt
done
python3 - t80.txt t120.txt t200.txt <<'PY'
import sys
for f, w in zip(sys.argv[1:], (80, 120, 200)):
    lines = open(f).read().splitlines()
    end = next((i for i, l in enumerate(lines) if l.startswith(("(hidden", "note:"))), len(lines))
    table = lines[:end]
    cols = [c.strip() for c in table[0].split("  ") if c.strip()]
    # the hidden line and its continuations (" "), not notes ("note:" and
    # their continuations, indented six)
    hidden = [l.strip() for l in lines[end:]
              if not l.startswith("note:") and not l.startswith("      ")]
    widest = max(len(l) for l in table)
    assert widest <= w, (f, widest)
    for keep in ("calls", "host_self (us)", "host_self (%)", "device_self (us)", "name"):
        assert keep in cols, (f, keep)
    print("COLUMNS=%d: widest line %d; columns: %s%s" % (w, widest, ", ".join(cols),
          "; " + " ".join(hidden) if hidden else ""))
PY
