#!/usr/bin/env bash
# A throw-away PostgreSQL server for the history store's tests.
#
#   source scripts/ci/postgres.sh start   # installs Debian's postgresql if missing,
#                                         # starts a server on a free 127.0.0.1 port,
#                                         # exports VERSUS_TEST_POSTGRES_URL, and
#                                         # VERSUS_TEST_POSTGRES_CA (TLS, below)
#   scripts/ci/postgres.sh stop           # stops it and deletes its data
#   scripts/ci/postgres.sh halt           # stops it, keeping its data and port
#   scripts/ci/postgres.sh resume         # starts a halted one again
#   (halt and resume are for tests of a server restarted mid-run)
#
# The cluster lives in a temporary folder owned by the `postgres` user, listens
# on 127.0.0.1 only, and trusts local connections (nothing else can reach it).
#
# TLS: the server also takes TLS connections (ssl=on; plaintext ones too), with
# a certificate from a throw-away CA the script makes with the openssl CLI.
# The server's certificate names only the host name `localhost` (no IP
# address), so sslmode=verify-full to localhost passes and to 127.0.0.1 is a
# real host-name mismatch. VERSUS_TEST_POSTGRES_CA is the CA's certificate
# (PEM). VERSUS_PG_TLS=off starts a server without TLS (and leaves
# VERSUS_TEST_POSTGRES_CA unset), to check that a plaintext-only server works.
set -euo pipefail

state=${VERSUS_PG_STATE:-/tmp/versus-test-postgres}
tls=${VERSUS_PG_TLS:-on}

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
  unset VERSUS_TEST_POSTGRES_CA
  if [ "$tls" != off ]; then
    certificates
    printf "ssl = on\nssl_cert_file = '%s'\nssl_key_file = '%s'\n" \
      "$state/tls/server.pem" "$state/tls/server.key" >> "$state/data/postgresql.conf"
    export VERSUS_TEST_POSTGRES_CA="$state/tls/ca.pem"
  fi
  "${run_as[@]}" "'$bin/pg_ctl' -D '$state/data' -l '$state/log' -w -o \"-c listen_addresses=127.0.0.1 -p $port -k '$state'\" start >/dev/null"
  echo "$port" > "$state/port"
  export VERSUS_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL ($("$bin/postgres" --version)) on 127.0.0.1:$port; VERSUS_TEST_POSTGRES_URL=$VERSUS_TEST_POSTGRES_URL"
  if [ "$tls" != off ]; then
    echo "TLS on (certificate for localhost only); VERSUS_TEST_POSTGRES_CA=$VERSUS_TEST_POSTGRES_CA"
  fi
}

# A CA (ca.pem) and the server's certificate signed by it (server.pem, for
# DNS name localhost only; its key server.key, mode 0600, owned by postgres),
# in $state/tls. P-256 keys: quick to make.
certificates() {
  if ! command -v openssl >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
  fi
  local d="$state/tls" ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
  mkdir -p "$d"
  openssl req -x509 "${ec[@]}" -keyout "$d/ca.key" -out "$d/ca.pem" -days 30 \
    -subj "/CN=versus test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req "${ec[@]}" -keyout "$d/server.key" -out "$d/server.csr" -subj "/CN=localhost" 2>/dev/null
  printf '%s\n' "subjectAltName=DNS:localhost" "basicConstraints=critical,CA:FALSE" \
    "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" > "$d/server.ext"
  openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -set_serial "0x$(openssl rand -hex 8)" \
    -days 30 -extfile "$d/server.ext" -out "$d/server.pem" 2>/dev/null
  rm -f "$d/server.csr" "$d/server.ext" "$d/ca.key"
  chmod 0600 "$d/server.key"
  chmod 0644 "$d/ca.pem" "$d/server.pem"
  chown -R postgres "$d" 2>/dev/null || true
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
