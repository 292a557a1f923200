# Ctrl-C during an ingest (issue 16): exit 130, one line on stderr, and the
# database as it was (python's sqlite3 reads the runs and the integrity
# check; the earlier run stays whole).  The signal must land mid-ingest: if
# the ingest won the race, the input doubles and it tries again.
set -u
gen() { # PATH MB
  python3 - "$1" "$2" <<'PY'
import sys
path, mb = sys.argv[1], float(sys.argv[2])
with open(path, "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    t, i, size = 1700000000000000.0, 0, 0
    while size < mb * 1e6:
        row = f"{i // 5000},MatMul_{i % 200},MatMul,AI_CORE,{t:.3f}\t,{1 + i % 97}.5,0,8\r\n"
        f.write(row)
        size += len(row)
        t += 200
        i += 1
PY
}
state() {
  python3 - t.db <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print("integrity:", con.execute("PRAGMA integrity_check").fetchone()[0])
for r in con.execute("SELECT r.name, count(k.id), total(k.dur_ns) FROM run r LEFT JOIN kernel k"
                     " ON k.run_id = r.id GROUP BY r.id ORDER BY r.name"):
    print("run", *r)
PY
}
gen small.csv 0.05
$PROFDB ingest -q --db t.db --run small small.csv || echo "small ingest failed"
state >before.txt
mb=20
for try in 1 2 3; do
  gen big.csv $mb
  $PROFDB ingest --db t.db --run big big.csv >out.txt 2>err.txt &
  pid=$!
  sleep 0.3
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc != 0 ] && break
  $PROFDB runs --db t.db --run big --delete >/dev/null   # it finished first: again, bigger
  mb=$((mb * 2))
done
echo "exit $rc"
cat err.txt
state >after.txt
cmp -s before.txt after.txt && echo "database as it was" || { echo "database changed:"; diff before.txt after.txt; }
