#!/usr/bin/env bash
# Tests the Go worker library: format, the module path (go list -m, and every
# reference to it), vet, build, a consumer module that builds the README's
# example against this checkout, unit tests, then versus's worker conformance
# scenarios against cmd/conformance-worker.
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

step "module path"
# The path users `go get`: where the repository lives, plus this directory.
MODULE="github.com/versus-bench/versus/workers/go"
got="$(go list -m)"
if [[ "$got" != "$MODULE" ]]; then
  echo "go.mod declares module $got; expected $MODULE" >&2
  exit 1
fi
# Every reference to the library, in code and README, uses that path.
stray="$(grep -rn --include='*.go' --include='*.md' --include='go.mod' -E '[A-Za-z0-9.-]+\.[a-z]+/[A-Za-z0-9./_-]*workers/go\b' . |
  grep -v -F "$MODULE" || true)"
if [[ -n "$stray" ]]; then
  echo "references to the library under another path:" >&2
  echo "$stray" >&2
  exit 1
fi
echo "$got"

step "vet"
go vet ./...
echo "ok"

step "build"
go build ./...
echo "ok"

step "a consumer module builds the README's example"
# A new module that requires the library by its path, pointed at this
# checkout with a replace directive (as the README's install section says),
# and whose main.go is the README's Usage example. No network: GOPROXY=off.
mkdir "$TMP/consumer"
awk '/^```go$/ {on = 1; next} /^```$/ {on = 0} on' README.md >"$TMP/consumer/main.go"
(
  cd "$TMP/consumer"
  export GOPROXY=off GOFLAGS=-mod=mod GOWORK=off
  go mod init example.com/consumer >/dev/null 2>&1
  go mod edit -require="$MODULE@v0.0.0" -replace="$MODULE=$HERE"
  go build -o "$TMP/consumer/worker" .
)
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
