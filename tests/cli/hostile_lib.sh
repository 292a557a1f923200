# hostile_lib.sh - shared by tests/cli/hostile_*.sh (sourced, not a case).
#
# Each check runs one profdb command on a hostile input and prints
# "ok NAME" on stdout, or "FAIL NAME: why" (details on stderr), so the
# case's .stdout.exact, which lists only ok lines, fails on any failure.
# A rejected input must give: exit status 1 (not a signal, not a hang past
# $TMO seconds), exactly one line on stderr starting "profdb: " that names
# the file (and a position where a reader parsed it), and a database that
# is byte-identical to before with no WAL content left behind.

TMO=${PROFDB_HOSTILE_TIMEOUT:-60}
RUNAS=""   # a command prefix for profdb (setpriv to drop root), normally none
DB=$WORK/hostile.db
export LC_ALL=C

sha() { sha256sum "$1" | cut -d' ' -f1; }

# A database file as bytes: the main file and any WAL content (DB by default;
# what is not a regular file is described, never read: it may be a FIFO).
db_state() {
	f=${1:-$DB}
	if [ -f "$f" ]; then s=$(sha "$f"); else s=$(stat -c '%F %s' "$f" 2>&1); fi
	if [ -s "$f-wal" ]; then s="$s wal=$(sha "$f-wal")"; fi
	echo "$s"
}

# Run profdb under a time bound; stdout/stderr to $WORK/out and $WORK/err.
pd() {
	timeout -k 5 "$TMO" $RUNAS "$PROFDB" "$@" >"$WORK/out" 2>"$WORK/err"
}

# Why an exit status is not a clean error exit ("" if it is).
bad_status() {
	case $1 in
	124|137) echo "hang: killed after ${TMO}s" ;;
	0) echo "accepted (exit 0)" ;;
	1) echo "" ;;
	*) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit $1, expected 1"; fi ;;
	esac
}

report() { # NAME WHY
	if [ -z "$2" ]; then
		echo "ok $1"
	else
		echo "FAIL $1: $2"
		{ echo "--- $1: $2"; cat "$WORK/err"; } >&2
	fi
}

# Check the error text of the last command: one line, "profdb: ", names
# the file (its base name), and a position when want_pos is 1.
check_msg() { # FILE WANT_POS
	n=$(wc -l <"$WORK/err")
	if [ "$n" -ne 1 ]; then echo "stderr has $n lines, expected 1"; return; fi
	if ! grep -q '^profdb: ' "$WORK/err"; then echo "error does not start with 'profdb: '"; return; fi
	if [ -n "$1" ] && ! grep -qF -- "$(basename "$1")" "$WORK/err"; then
		echo "error does not name '$(basename "$1")'"; return
	fi
	if [ "$2" = 1 ] && ! grep -Eq '(:[0-9]+:|:[0-9]+$|byte [0-9]+|line [0-9]+|offset [0-9]+|row [0-9]+)' "$WORK/err"; then
		echo "error names no position"; return
	fi
}

# fail_clean NAME WANT_POS FILE DBFILE ARGS...: run profdb ARGS and require
# a clean error naming FILE, with DBFILE byte-identical and no WAL content.
fail_clean() {
	name=$1 pos=$2 file=$3 dbf=$4
	shift 4
	before=$(db_state "$dbf")
	pd "$@"
	why=$(bad_status $?)
	[ -z "$why" ] && why=$(check_msg "$file" "$pos")
	[ -z "$why" ] && [ "$(db_state "$dbf")" != "$before" ] && why="database file changed"
	[ -z "$why" ] && [ -s "$dbf-wal" ] && why="WAL not empty after exit"
	report "$name" "$why"
}

# expect_reject NAME WANT_POS FILE [ingest args...]: ingest FILE (or the
# args after it) into $DB and require a clean rejection.
expect_reject() {
	name=$1 pos=$2 file=$3
	shift 3
	fail_clean "$name" "$pos" "$file" "$DB" ingest --db "$DB" --run "h_$name" "$file" "$@"
}

# A run that was accepted: the database is sound and the WAL checkpointed.
check_sound() {
	if [ -s "$DB-wal" ]; then echo "WAL not empty after exit"; return; fi
	if ! pd sql --db "$DB" "PRAGMA integrity_check" || ! grep -qx 'ok' "$WORK/out"; then
		echo "integrity_check failed: $(cat "$WORK/out" "$WORK/err")"; return
	fi
}

# expect_either NAME WANT_POS FILE: either a clean rejection (as
# above) or a clean success that leaves a sound database.  For inputs whose
# handling is a choice of the reader (skip a row, or refuse the file).
expect_either() {
	name=$1 pos=$2 file=$3
	before=$(db_state)
	pd ingest --db "$DB" --run "h_$name" "$file"
	rc=$?
	if [ $rc = 0 ]; then
		echo "$name: accepted" >&2
		report "$name" "$(check_sound)"
		return
	fi
	why=$(bad_status $rc)
	[ -z "$why" ] && why=$(check_msg "$file" "$pos")
	[ -z "$why" ] && [ "$(db_state)" != "$before" ] && why="database file changed"
	[ -z "$why" ] && [ -s "$DB-wal" ] && why="WAL not empty after exit"
	[ -z "$why" ] && echo "$name: rejected: $(cat "$WORK/err")" >&2
	report "$name" "$why"
}

# A known-good kernel_details.csv (torch_npu Level0 header, hand-written).
good_csv() { # PATH
	printf '%s\r\n' 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim' \
	  '1,MatMul_1,MatMul,AI_CORE,1000.000	,10.5,0,8' \
	  '1,Add_2,Add,AI_VECTOR_CORE,1011.000	,2.25,0,4' \
	  '2,MatMul_1,MatMul,AI_CORE,2000.000	,11.5,0,8' >"$1"
}

# Start every case from a database holding one good run, and check that the
# CLI leaves no WAL content once it exits (it closes the database).
baseline() {
	mkdir -p "$WORK/good"
	good_csv "$WORK/good/kernel_details.csv"
	if ! pd ingest --db "$DB" --run good "$WORK/good/kernel_details.csv"; then
		echo "FAIL baseline: good ingest failed: $(cat "$WORK/err")"
		exit 1
	fi
	report baseline "$(check_sound)"
}

# same_bytes NAME [VAR=VALUE] ARGS...: streamed output (PROFDB_HOLD_BYTES=1:
# a table or md in two passes) == whole output, exit 0 both; output not to
# a terminal (COLUMNS empty: no width), unless VAR sets one
same_bytes() {
	name=$1
	shift
	cols=
	case $1 in COLUMNS=*) cols=${1#COLUMNS=}; shift ;; esac
	COLUMNS=$cols pd "$@" $([ -n "$cols" ] && echo --wide)
	st1=$?
	cp "$WORK/out" "$WORK/whole"
	COLUMNS=$cols PROFDB_HOLD_BYTES=1 pd "$@"
	st2=$?
	cp "$WORK/out" "$WORK/streamed"
	if [ $st1 != 0 ] || [ $st2 != 0 ]; then
		report "$name" "exit $st1/$st2: $(cat "$WORK/err")"
	elif ! cmp -s "$WORK/whole" "$WORK/streamed"; then
		report "$name" "streamed bytes differ: $(diff "$WORK/whole" "$WORK/streamed" | head -5)"
	else
		report "$name" ""
	fi
}
