# Output goes through the pager only when stdout is a terminal (script(1)
# gives it one), never with --no-pager (before or after the command name) or
# into a pipe; the pager's own lines are marked by the sed used as $PAGER.
. "$HERE/query_setup.sh"
command -v script >/dev/null || { echo "script(1) not installed"; exit 77; }
export PROFDB_PAGER="sed 's/^/paged: /'"
tty_run() { script -qec "$1" /dev/null </dev/null | tr -d '\r'; }
echo "terminal:"
tty_run "$PROFDB kernels --run overlap --format csv --top 2"
echo "terminal, --no-pager after the command:"
tty_run "$PROFDB kernels --run overlap --format csv --top 2 --no-pager"
echo "terminal, --no-pager before it:"
tty_run "$PROFDB --no-pager kernels --run overlap --format csv --top 2"
echo "terminal, PROFDB_PAGER=cat:"
tty_run "PROFDB_PAGER=cat $PROFDB kernels --run overlap --format csv --top 2"
echo "pipe:"
$PROFDB kernels --run overlap --format csv --top 2 | cat
echo "terminal, exit status kept: $(script -qec "$PROFDB kernels --run nosuch" /dev/null </dev/null >/dev/null; echo $?)"
