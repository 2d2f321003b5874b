#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, benchmarks and trying `--db postgres://...` on one machine.
#
#   scripts/pg-cluster.sh start DIR   # initdb in DIR, start it on a Unix socket in DIR (no TCP), print its URL
#   scripts/pg-cluster.sh stop DIR    # stop it (the directory is left for you to delete)
#   scripts/pg-cluster.sh url DIR     # print the URL of a running cluster
#
# Uses Debian's `postgresql` packages (`apt-get install postgresql postgresql-15-postgis-3`). As root the
# server runs as the `postgres` user (PostgreSQL refuses to run as root), and DIR is handed to it. Durability
# is switched off (fsync, synchronous_commit): this cluster is for tests, never for data you keep.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|url DIR" >&2
  exit 2
fi

bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bin=$d
done
if [ -z "$bin" ]; then
  echo "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql" >&2
  exit 3
fi

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

dir=$(realpath -m "$dir")
url="postgres://postgres@/propintel?host=$dir"

case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      chown postgres "$dir"
      if ! runuser -u postgres -- test -w "$dir"; then
        echo "the postgres user cannot reach $dir: every parent directory must be searchable by it (use a fresh directory under /tmp)" >&2
        exit 1
      fi
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=128MB" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_pg "$bin/psql" -h "$dir" -U postgres -d postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = 'propintel'" | grep -q 1 \
      || as_pg "$bin/createdb" -h "$dir" -U postgres propintel
    echo "$url"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null; fi
    ;;
  url)
    echo "$url"
    ;;
  *)
    echo "usage: $0 start|stop|url DIR" >&2
    exit 2
    ;;
esac
