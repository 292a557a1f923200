# Output that cannot be written (/dev/full: every write fails with ENOSPC)
# fails with exit 1 and a message that says why, whichever path wrote it:
# a query's table and csv, sql streaming its rows (csv) and holding them
# (table), diff, and commands whose output is their own lines (schema,
# ingest).
. "$HERE/query_setup.sh"
full() {
  $PROFDB "$@" >/dev/full 2>err.txt
  echo "profdb $* -> exit $?"
  cat err.txt
}
full runs
full kernels --format csv
full sql --format csv "SELECT name FROM kernel_v"
full sql "SELECT name FROM kernel_v"
full diff overlap twice
full schema
full ingest --db i.db --run x trace.json
