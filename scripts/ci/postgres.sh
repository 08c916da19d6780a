#!/usr/bin/env bash
# A throw-away PostgreSQL server for the history store's tests.
#
#   source scripts/ci/postgres.sh start   # installs Debian's postgresql if missing,
#                                         # starts a server on a free 127.0.0.1 port,
#                                         # exports VERSUS_TEST_POSTGRES_URL
#   scripts/ci/postgres.sh stop           # stops it and deletes its data
#   scripts/ci/postgres.sh halt           # stops it, keeping its data and port
#   scripts/ci/postgres.sh resume         # starts a halted one again
#   (halt and resume are for tests of a server restarted mid-run)
#
# The cluster lives in a temporary folder owned by the `postgres` user, listens
# on 127.0.0.1 only, and trusts local connections (nothing else can reach it).
set -euo pipefail

state=${VERSUS_PG_STATE:-/tmp/versus-test-postgres}

pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && echo "$d"
}

start() {
  if [ -z "$(pg_bin)" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local bin port
  bin=$(pg_bin)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  stop >/dev/null 2>&1 || true
  mkdir -p "$state"
  chown postgres "$state"
  local run_as=(su postgres -s /bin/sh -c)
  if [ "$(id -u)" != 0 ]; then run_as=(sh -c); fi
  "${run_as[@]}" "'$bin/initdb' -D '$state/data' -U postgres --auth=trust >/dev/null"
  "${run_as[@]}" "'$bin/pg_ctl' -D '$state/data' -l '$state/log' -w -o \"-c listen_addresses=127.0.0.1 -p $port -k '$state'\" start >/dev/null"
  echo "$port" > "$state/port"
  export VERSUS_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL ($("$bin/postgres" --version)) on 127.0.0.1:$port; VERSUS_TEST_POSTGRES_URL=$VERSUS_TEST_POSTGRES_URL"
}

stop() {
  local bin
  bin=$(pg_bin) || return 0
  if [ -d "$state/data" ]; then
    local run_as=(su postgres -s /bin/sh -c)
    if [ "$(id -u)" != 0 ]; then run_as=(sh -c); fi
    "${run_as[@]}" "'$bin/pg_ctl' -D '$state/data' -m fast -w stop >/dev/null" || true
  fi
  rm -rf "$state"
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}

halt() {
  as_postgres "'$(pg_bin)/pg_ctl' -D '$state/data' -m fast -w stop >/dev/null"
}

resume() {
  local port
  port=$(cat "$state/port")
  as_postgres "'$(pg_bin)/pg_ctl' -D '$state/data' -l '$state/log' -w -o \"-c listen_addresses=127.0.0.1 -p $port -k '$state'\" start >/dev/null"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  halt) halt ;;
  resume) resume ;;
  *) echo "usage: source scripts/ci/postgres.sh start | scripts/ci/postgres.sh stop|halt|resume" >&2; return 2 2>/dev/null || exit 2 ;;
esac
