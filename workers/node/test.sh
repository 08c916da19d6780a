#!/usr/bin/env bash
# Tests of the Node.js worker library: installs the dev tools from the npm
# registry when missing, checks formatting and types, runs the unit tests and
# then the versus conformance scenarios against conformance-worker.mjs.
# Needs node >= 20 and npm; VERSUS may name the versus binary to use.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

step() { printf '\n== %s ==\n' "$*"; }

step "install (npm ci, when needed)"
# npm ci installs exactly package-lock.json; skip it when that is in place.
if ! [ -x node_modules/.bin/prettier ] || ! [ -x node_modules/.bin/tsc ] ||
  ! [ node_modules/.package-lock.json -nt package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "node_modules is up to date"
fi

step "format (prettier --check)"
node_modules/.bin/prettier --check .

step "types (tsc)"
node_modules/.bin/tsc -p tsconfig.json

step "unit tests (node --test)"
node --test test/

step "conformance"
VERSUS_BIN="${VERSUS:-$REPO/target/debug/versus}"
if [ -z "${VERSUS:-}" ] && ! [ -x "$VERSUS_BIN" ]; then
  echo "building versus ($VERSUS_BIN is missing)"
  (cd "$REPO" && cargo build --quiet)
fi
"$VERSUS_BIN" conformance -- node "$HERE/conformance-worker.mjs"
