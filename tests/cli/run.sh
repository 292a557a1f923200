#!/bin/sh
# run.sh PROFDB CASE - run tests/cli/CASE.sh with $PROFDB set to the binary
# under test, in a fresh temporary folder ($WORK), then compare its stdout
# with CASE.stdout.exact and its stderr with CASE.stderr.exact (each when
# present) and its exit status with CASE.exit (default 0).
# PROFDB_SET_EXACT=1 rewrites stdout.exact (and stderr.exact where it exists).
set -u
PROFDB=$1
CASE=$2
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profdb-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export PROFDB WORK HERE
export PROFDB_TESTDATA=${PROFDB_TESTDATA:-$HERE/../../testdata}
export PROFDB_CORPUS=${PROFDB_CORPUS:-$HERE/../../testdata/corpus}
unset PROFDB_DB
export COLUMNS=100 LC_ALL=C

(cd "$WORK" && sh "$HERE/$CASE.sh") >"$WORK/stdout" 2>"$WORK/stderr"
status=$?
# 77: the case decided it cannot run here (meson counts it as skipped)
if [ "$status" = 77 ]; then
  cat "$WORK/stdout"
  exit 77
fi
want_status=0
[ -f "$HERE/$CASE.exit" ] && want_status=$(cat "$HERE/$CASE.exit")

if [ "${PROFDB_SET_EXACT:-0}" = 1 ]; then
  cp "$WORK/stdout" "$HERE/$CASE.stdout.exact"
  [ -f "$HERE/$CASE.stderr.exact" ] && cp "$WORK/stderr" "$HERE/$CASE.stderr.exact"
  [ "$status" != 0 ] && echo "$status" >"$HERE/$CASE.exit"
  echo "rewrote $CASE.stdout.exact (exit $status)"
  exit 0
fi
fail=0
if [ "$status" != "$want_status" ]; then
  echo "exit status $status, expected $want_status"
  fail=1
fi
if [ -f "$HERE/$CASE.stdout.exact" ] && ! diff -u "$HERE/$CASE.stdout.exact" "$WORK/stdout"; then
  echo "stdout differs from $CASE.stdout.exact"
  fail=1
fi
if [ -f "$HERE/$CASE.stderr.exact" ] && ! diff -u "$HERE/$CASE.stderr.exact" "$WORK/stderr"; then
  echo "stderr differs from $CASE.stderr.exact"
  fail=1
fi
if [ $fail != 0 ]; then
  echo "--- stderr:"
  cat "$WORK/stderr"
fi
exit $fail
