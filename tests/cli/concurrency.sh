# Concurrency: readers (profdb sql, profdb kernels) run while an ingest
# writes and see either none or all of the new run; two ingests into one
# database at once both land (one waits for the other); two ingests of the
# same run name at once: one lands, the other is refused cleanly.  Never a
# corrupt file or a lost run.  Row counts come from the generator, stored
# counts from python's sqlite3.
. "$HERE/hostile_lib.sh"

gen() { # PATH ROWS SEED: a kernel_details.csv of ROWS rows
	python3 - "$1" "$2" "$3" <<'PY'
import random, sys
path, rows, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(seed)
with open(path, "w", newline="") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n")
    t = 1700000000000000.0
    for i in range(rows):
        dur = rnd.randrange(1, 100000) / 1000
        f.write(f"{i // 1000},K_{rnd.randrange(300)},K,AI_CORE,{t:.3f}\t,{dur:.3f},0,8\r\n")
        t += dur + 1
PY
}
count() { # RUN: its kernel rows, by python's sqlite3
	python3 -c 'import sqlite3, sys
con = sqlite3.connect(sys.argv[1], timeout=60)
print(con.execute("SELECT count(*) FROM kernel k JOIN run r ON r.id = k.run_id WHERE r.name = ?", (sys.argv[2],)).fetchone()[0])' "$DB" "$1"
}

baseline
mkdir -p "$WORK/big" "$WORK/m1" "$WORK/m2"
gen "$WORK/big/kernel_details.csv" 100000 1
gen "$WORK/m1/kernel_details.csv" 30000 2
gen "$WORK/m2/kernel_details.csv" 50000 3

# Readers during a write: every reader exits 0, sees the good run whole and
# the new run either absent or complete (the ingest is one transaction).
have_kernels=0
"$PROFDB" kernels --help >/dev/null 2>&1 && have_kernels=1
"$PROFDB" ingest -q --db "$DB" --run big "$WORK/big/kernel_details.csv" 2>"$WORK/w.err" &
writer=$!
reads=0 why=""
while kill -0 $writer 2>/dev/null && [ -z "$why" ]; do
	if ! timeout 60 "$PROFDB" sql --db "$DB" --format csv \
	    "SELECT (SELECT count(*) FROM kernel_v WHERE run = 'good') || '/' || (SELECT count(*) FROM kernel_v WHERE run = 'big')" \
	    >"$WORK/r.out" 2>"$WORK/r.err"; then
		why="profdb sql failed during the ingest: $(cat "$WORK/r.err")"
		break
	fi
	case $(tail -n 1 "$WORK/r.out" | tr -d '"\r') in
	3/0|3/100000) ;;
	*) why="reader saw $(tail -n 1 "$WORK/r.out") (good/big kernels), expected 3/0 or 3/100000" ;;
	esac
	if [ -z "$why" ] && [ $have_kernels = 1 ] &&
	   ! timeout 60 "$PROFDB" kernels --db "$DB" >/dev/null 2>"$WORK/r.err"; then
		why="profdb kernels failed during the ingest: $(cat "$WORK/r.err")"
	fi
	reads=$((reads + 1))
done
wait $writer
st=$?
[ -z "$why" ] && [ $st != 0 ] && why="the ingest failed (exit $st): $(cat "$WORK/w.err")"
[ -z "$why" ] && [ "$(count big)" != 100000 ] && why="big run has $(count big) kernels, expected 100000"
echo "readers ran $reads times during the ingest" >&2
report readers_during_ingest "$why"

# Two ingests at once into one database: both land, whole.
"$PROFDB" ingest -q --db "$DB" --run m1 "$WORK/m1/kernel_details.csv" 2>"$WORK/a.err" &
a=$!
"$PROFDB" ingest -q --db "$DB" --run m2 "$WORK/m2/kernel_details.csv" 2>"$WORK/b.err" &
b=$!
wait $a; sa=$?
wait $b; sb=$?
why=""
[ $sa != 0 ] && why="first ingest exit $sa: $(cat "$WORK/a.err")"
[ -z "$why" ] && [ $sb != 0 ] && why="second ingest exit $sb: $(cat "$WORK/b.err")"
[ -z "$why" ] && [ "$(count m1)/$(count m2)" != 30000/50000 ] && why="stored $(count m1)/$(count m2), expected 30000/50000"
report two_ingests_at_once "$why"

# The same run name twice at once: exactly one lands, the other is refused
# with one line; the stored run is one of the two files, whole.
"$PROFDB" ingest -q --db "$DB" --run same "$WORK/m1/kernel_details.csv" 2>"$WORK/a.err" &
a=$!
"$PROFDB" ingest -q --db "$DB" --run same "$WORK/m2/kernel_details.csv" 2>"$WORK/b.err" &
b=$!
wait $a; sa=$?
wait $b; sb=$?
why=""
case "$sa/$sb" in
0/1) loser=$WORK/b.err ;;
1/0) loser=$WORK/a.err ;;
*) why="exit statuses $sa and $sb, expected one 0 and one 1" ;;
esac
[ -z "$why" ] && [ "$(wc -l <"$loser")" != 1 ] && why="refusal is not one line: $(cat "$loser")"
[ -z "$why" ] && ! grep -q "same" "$loser" && why="refusal does not name the run: $(cat "$loser")"
n=$(count same)
[ -z "$why" ] && [ "$n" != 30000 ] && [ "$n" != 50000 ] && why="run 'same' has $n kernels"
report same_name_at_once "$why"

# Afterwards: a sound file, every run whole, no WAL content.
why=$(check_sound)
[ -z "$why" ] && [ "$(count good)/$(count big)/$(count m1)/$(count m2)" != 3/100000/30000/50000 ] && why="a run changed"
report sound_after "$why"
