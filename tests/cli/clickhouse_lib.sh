# clickhouse_lib.sh - sourced by the tests/cli/clickhouse_*.sh cases: start
# real clickhouse-server processes as the current user on loopback, each with
# its config, data and logs under $WORK/chN, on free ports, and stop them by
# their PID when the case exits.  A case exits 77 (skipped) only when
# clickhouse-server is not installed; scripts/setup installs it, so CI runs
# them.
#
#   ch_start N [XML]           start server N (1, 2, ...) with XML added to its
#                              config (remote_servers); sets CH_PORT_N (HTTP),
#                              CH_TCP_N (kept when set before), CH_PID_N;
#                              users: default (no password), tester (s3cret),
#                              capped (no password; answers of at most 600
#                              rows, a bigger one is an error)
#   ch_stop N [SIGNAL]         stop server N (kill by PID, default TERM; wait)
#   ch_restart N               start server N again on its ports and data
#   ch_mutations_done N        wait until server N has applied every DELETE
#   ch_url N [USERINFO@] DB    echo clickhouse://USERINFO@127.0.0.1:PORT/DB
#   ch_query N SQL             run SQL through the HTTP interface (curl)
CH_SERVER=$(command -v clickhouse-server || ls /usr/sbin/clickhouse-server 2>/dev/null)
if [ -z "$CH_SERVER" ]; then
  echo "clickhouse-server is not installed (scripts/setup installs it)"
  exit 77
fi
CH_PIDS=""
# the servers are children of this shell: wait reaps them (kill -0 would
# still see a zombie)
trap 'for p in $CH_PIDS; do kill "$p" 2>/dev/null; done; for p in $CH_PIDS; do wait "$p" 2>/dev/null; done' EXIT

# A TCP port nobody listens on now (the kernel picks it).
ch_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Is process PID running (not exited, not a zombie waiting to be reaped)?
ch_alive() {
  [ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# Launch server N from $WORK/chN/config.xml and wait until it answers /ping
# and is ours: its macro profdb_dir names its folder (another case's server
# on a port the kernel handed out twice would answer /ping too).  0 when
# up; 1 when it exited (e.g. its port was taken meanwhile) or another
# answers; exits the case after 30 s.
ch_launch() {
  n=$1
  dir="$WORK/ch$n"
  eval "http=\$CH_PORT_$n"
  "$CH_SERVER" --config-file="$dir/config.xml" >>"$dir/log/stdout" 2>&1 &
  pid=$!
  CH_PIDS="$CH_PIDS $pid"
  eval "CH_PID_$n=$pid"
  i=0
  until curl -sf "http://127.0.0.1:$http/ping" >/dev/null 2>&1 && ch_alive "$pid"; do
    ch_alive "$pid" || { wait "$pid" 2>/dev/null; return 1; }
    i=$((i + 1))
    if [ $i -gt 300 ]; then
      echo "clickhouse-server $n did not start:"
      tail -5 "$dir/log/stdout" "$dir/log/err.log" 2>/dev/null
      exit 1
    fi
    sleep 0.1
  done
  [ "$(ch_query "$n" "SELECT substitution FROM system.macros WHERE macro = 'profdb_dir'")" = "$dir" ] || {
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; return 1; }
}

ch_restart() {
  ch_launch "$1" || { echo "clickhouse-server $1 did not start again:"; tail -5 "$WORK/ch$1/log/err.log" 2>/dev/null; exit 1; }
}

ch_mutations_done() {
  i=0
  while [ "$(ch_query "$1" "SELECT count() FROM system.mutations WHERE is_done = 0")" != 0 ]; do
    i=$((i + 1))
    [ $i -gt 600 ] && { echo "mutations on server $1 did not finish"; exit 1; }
    sleep 0.1
  done
}

ch_start() {
  n=$1
  # ports set before (CH_PORT_N, CH_TCP_N) are kept: a cluster's config
  # names its servers' ports before they start; free ones are picked again
  # when the server cannot take them (another process bound one between
  # the pick and the server's start)
  eval "fixed=\${CH_PORT_$n:-}"
  for try in 1 2 3 4 5; do
    ch_config "$@"
    ch_launch "$n" && return 0
    [ -z "$fixed" ] || break
    eval "unset CH_PORT_$n CH_TCP_$n"
  done
  echo "clickhouse-server $n did not start:"
  tail -5 "$WORK/ch$n/log/stdout" "$WORK/ch$n/log/err.log" 2>/dev/null
  exit 1
}

# Write server N's config (ports: CH_PORT_N and CH_TCP_N, else free ones).
ch_config() {
  n=$1
  dir="$WORK/ch$n"
  mkdir -p "$dir/data" "$dir/tmp" "$dir/log" "$dir/user_files"
  eval "http=\${CH_PORT_$n:-\$(ch_free_port)} tcp=\${CH_TCP_$n:-\$(ch_free_port)}"
  while [ "$tcp" = "$http" ]; do tcp=$(ch_free_port); done
  cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$dir/log/server.log</log><errorlog>$dir/log/err.log</errorlog><size>10M</size><count>1</count></logger>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mlock_executable>false</mlock_executable>
  <timezone>UTC</timezone>
  <macros><profdb_dir>$dir</profdb_dir></macros>
  ${2:-}
</yandex>
EOF
  cat >"$dir/users.xml" <<'EOF'
<?xml version="1.0"?>
<yandex>
  <profiles><default></default><capped><max_result_rows>600</max_result_rows><result_overflow_mode>throw</result_overflow_mode></capped></profiles>
  <users>
    <default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default>
    <tester><password>s3cret</password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></tester>
    <capped><password></password><networks><ip>127.0.0.1</ip></networks><profile>capped</profile><quota>default</quota></capped>
  </users>
  <quotas><default></default></quotas>
</yandex>
EOF
  eval "CH_PORT_$n=$http CH_TCP_$n=$tcp"
}

ch_stop() {
  eval "pid=\$CH_PID_$1"
  kill -"${2:-TERM}" "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

ch_url() {
  eval "port=\$CH_PORT_$1"
  echo "clickhouse://$2127.0.0.1:$port/$3"
}

ch_query() {
  eval "port=\$CH_PORT_$1"
  curl -sS "http://127.0.0.1:$port/" --data-binary "$2"
}
