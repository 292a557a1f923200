# The library takes its settings from its caller (struct profdb_limits,
# profdb_set_limits); the command line reads the environment
# (cmd/cli_limits.c).  A getenv in lib/ is a hidden knob: each one left is
# listed here with the variable it reads, and any other fails this case.
# None is left: the ClickHouse password, netrc file and CA file come from
# the caller (struct profdb_remote_opts), which cmd/cli_limits.c fills, and
# the temporary folder is SQLite's own (SQLITE_FCNTL_TEMPFILENAME).
LIB=$HERE/../../lib
allowed=''
[ -d "$LIB" ] || { echo "no lib/ at $LIB"; exit 1; }
n=0
# every getenv-like call (getenv, secure_getenv, or a read of environ), by
# file and line, with the variable named when it is a literal
for f in $(cd "$LIB" && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
  grep -n 'getenv\|\benviron\b' "$LIB/$f" | while IFS= read -r hit; do
    var=$(printf '%s\n' "$hit" | sed -n 's/.*getenv *( *"\([A-Za-z_0-9]*\)".*/\1/p')
    if [ -z "$var" ]; then
      echo "lib/$f:${hit%%:*}: getenv or environ without a literal name"
    elif ! printf '%s\n' "$allowed" | grep -qx "$f:$var"; then
      echo "lib/$f:${hit%%:*}: getenv(\"$var\") (a setting belongs in struct profdb_limits or an options struct)"
    fi
  done
  n=$((n + 1))
done
# the allow-list is not stale: each entry still reads its variable
printf '%s\n' "$allowed" | while IFS=: read -r f var; do
  [ -n "$f" ] || continue
  grep -q "getenv(\"$var\")" "$LIB/$f" || echo "allow-list: lib/$f no longer reads $var (drop the entry)"
done
[ "$n" -gt 100 ] || echo "only $n files under lib/: wrong folder?"
echo done
