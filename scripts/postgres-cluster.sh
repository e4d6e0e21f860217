#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks (Debian's postgresql package).
#   postgres-cluster.sh start DIR [PID]   initdb in DIR (a new, empty directory), start on a free 127.0.0.1 port
#                                   with trust authentication and the socket in DIR; prints the port. With PID (the
#                                   owning process, e.g. the test run), a detached watcher destroys the cluster once
#                                   PID has exited, however it exited (crash, SIGKILL, an exit that skips atexit).
#   postgres-cluster.sh standby DIR PRIMARY_DIR [PID]   a streaming standby of the running cluster in PRIMARY_DIR
#                                   (pg_basebackup -R), in DIR on a free port, started; prints the port (PID: as start)
#   postgres-cluster.sh stop DIR    stops it (fast) and keeps DIR
#   postgres-cluster.sh crash DIR   stops it at once (pg_ctl stop -m immediate: as if the machine failed)
#   postgres-cluster.sh promote DIR promotes a standby to a primary (pg_ctl promote, waits until it accepts writes)
#   postgres-cluster.sh start-server DIR   starts a stopped cluster again on its port
#   postgres-cluster.sh destroy DIR stops it and removes DIR
# Runs the server as the `postgres` user when started as root (PostgreSQL refuses root). Every command runs from
# `/`, which the `postgres` user can always enter: a caller's working directory (a clone under /root) may not be.
# Exit 3 when the PostgreSQL binaries are missing (callers skip, saying why).
set -euo pipefail
command="${1:?usage: postgres-cluster.sh start|standby|stop|crash|promote|start-server|destroy DIR [PRIMARY_DIR] [PID]}"
dir="$(realpath -m "${2:?a directory}")"
if [ "$command" = standby ]; then
  primary="$(realpath -m "${3:?usage: postgres-cluster.sh standby DIR PRIMARY_DIR [PID]}")"
  owner_pid="${4:-}"
else
  owner_pid="${3:-}"
fi
script="$(realpath "$0")"
cd /
bin=""
for candidate in /usr/lib/postgresql/*/bin; do
  [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ] && bin="$candidate"
done
[ -n "$bin" ] || { echo "postgres-cluster: no initdb/pg_ctl under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2; exit 3; }
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
server() {
  local port
  port="$(cat "$dir/port")"
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200" start >/dev/null
}
# DIR, owned by the server's user, and a free port recorded in DIR/port.
own_dir_and_port() {
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  echo "$port" | as_owner tee "$dir/port" >/dev/null
}
# Starts the server, the owner's watcher when asked, and prints the port.
start_owned() {
  server
  if [ -n "$owner_pid" ]; then
    setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec bash "$2" destroy "$3"' \
      watcher "$owner_pid" "$script" "$dir" </dev/null >/dev/null 2>&1 &
  fi
  echo "$port"
}
case "$command" in
  start)
    own_dir_and_port
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
    start_owned
    ;;
  standby)
    own_dir_and_port
    as_owner "$bin/pg_basebackup" -D "$dir/data" -R -X stream --checkpoint=fast -h 127.0.0.1 -p "$(cat "$primary/port")" -U postgres \
      >"$dir/basebackup.log" 2>&1
    start_owned
    ;;
  start-server) server ;;
  stop) as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null ;;
  crash) as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null ;;
  promote) as_owner "$bin/pg_ctl" -D "$dir/data" -w -t 30 promote >/dev/null ;;
  destroy)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "postgres-cluster: unknown command $command" >&2; exit 2 ;;
esac
