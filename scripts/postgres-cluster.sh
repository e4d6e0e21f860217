#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks (Debian's postgresql package).
#   postgres-cluster.sh start DIR   initdb in DIR (a new, empty directory), start on a free 127.0.0.1 port with
#                                   trust authentication and the socket in DIR; prints the port.
#   postgres-cluster.sh stop DIR    stops it (fast) and keeps DIR
#   postgres-cluster.sh start-server DIR   starts a stopped cluster again on its port
#   postgres-cluster.sh destroy DIR stops it and removes DIR
# Runs the server as the `postgres` user when started as root (PostgreSQL refuses root). Exit 3 when the
# PostgreSQL binaries are missing (callers skip, saying why).
set -euo pipefail
command="${1:?usage: postgres-cluster.sh start|stop|start-server|destroy DIR}"
dir="${2:?a directory}"
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
case "$command" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    echo "$port" | as_owner tee "$dir/port" >/dev/null
    server
    echo "$port"
    ;;
  start-server) server ;;
  stop) as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null ;;
  destroy)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "postgres-cluster: unknown command $command" >&2; exit 2 ;;
esac
