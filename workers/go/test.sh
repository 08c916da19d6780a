#!/usr/bin/env bash
# Tests the Go worker library: format, vet, unit tests, then versus's worker
# conformance scenarios against cmd/conformance-worker.
#
# The library uses only the standard library, so there is nothing to install
# beyond Go itself. The conformance run uses $VERSUS if set, else the repo's
# target/debug/versus, built with cargo when it is missing.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

step() { printf '\n== %s ==\n' "$*"; }

command -v go >/dev/null || { echo "test.sh: 'go' not found in PATH" >&2; exit 1; }
go version

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

step "format (gofmt)"
unformatted="$(gofmt -l .)"
if [[ -n "$unformatted" ]]; then
  echo "not gofmt-formatted:" >&2
  echo "$unformatted" >&2
  exit 1
fi
echo "ok"

step "vet"
go vet ./...
echo "ok"

step "unit tests"
go test -count=1 -v ./... 2>&1 | tee "$TMP/unit.log" | grep -v -E '^=== (RUN|PAUSE|CONT|NAME)'
echo "unit tests: $(grep -c -E '^--- PASS' "$TMP/unit.log" || true) passed, $(grep -c -E '^--- FAIL' "$TMP/unit.log" || true) failed"

step "conformance"
go build -buildvcs=false -o "$TMP/conformance-worker" ./cmd/conformance-worker
if [[ -n "${VERSUS:-}" ]]; then
  versus="$VERSUS"
else
  versus="$REPO/target/debug/versus"
  if [[ ! -x "$versus" ]]; then
    command -v cargo >/dev/null || {
      echo "test.sh: $versus is missing and cargo is not in PATH; build versus or set VERSUS" >&2
      exit 1
    }
    (cd "$REPO" && cargo build --quiet)
  fi
fi
"$versus" conformance -- "$TMP/conformance-worker"
