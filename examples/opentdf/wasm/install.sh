#!/usr/bin/env bash
# Builds the WASM half of examples/opentdf from the package registries into
# .tools/ (examples/opentdf/install.sh calls it):
#
#   .tools/tdfcore.wasm       the TDF core (core/), stock Go, GOOS=wasip1 GOARCH=wasm, reactor
#   .tools/wazero-host        wazero host + versus Go worker (wazero/)
#   .tools/chicory-host.jar   Chicory host + versus Java worker, one jar (chicory/, Maven, JDK 17)
#   node/node_modules/        versus Node worker for the Node host (node/host.mjs needs no build)
#   .tools/sdkcheck           the Go SDK check (sdkcheck/), and .tools/kas, for check.sh
#
# then runs check.sh: every host's TDFs must be read back by the Go SDK.
# Idempotent: Go and Maven rebuild only what changed. Needs go >= 1.24,
# node + npm, mvn, and OpenJDK 17. Pass --no-check to skip check.sh.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
TOOLS="$HERE/.tools"
JAVA17=/usr/lib/jvm/java-17-openjdk-amd64
mkdir -p "$TOOLS"

need() { command -v "$1" >/dev/null || { echo "wasm/install.sh: '$1' not found in PATH" >&2; exit 1; }; }
need go; need node; need npm; need mvn
[[ -x "$JAVA17/bin/java" ]] || { echo "wasm/install.sh: OpenJDK 17 not found at $JAVA17" >&2; exit 1; }

echo "== wasm: tdfcore.wasm (GOOS=wasip1 GOARCH=wasm, -buildmode=c-shared) =="
(cd "$HERE/core" && GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags=-s -o "$TOOLS/tdfcore.wasm" .)

echo "== wasm: wazero-host, sdkcheck, kas =="
(cd "$HERE/wazero" && go build -trimpath -o "$TOOLS/wazero-host" .)
(cd "$HERE/sdkcheck" && go build -trimpath -o "$TOOLS/sdkcheck" .)
(cd "$HERE/../kas" && go build -trimpath -o "$TOOLS/kas" .)

echo "== wasm: node host (npm ci) =="
NODE_DIR="$HERE/node"
if [[ -f "$NODE_DIR/node_modules/.package-lock.json" \
      && ! "$NODE_DIR/package-lock.json" -nt "$NODE_DIR/node_modules/.package-lock.json" ]]; then
  echo "node_modules up to date"
else
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "== wasm: chicory-host.jar (Maven, JDK 17) =="
if [[ ! -f "$HOME/.m2/repository/dev/versus/versus-worker/0.1.0/versus-worker-0.1.0.jar" ]]; then
  (cd "$REPO/workers/java" && JAVA_HOME="$JAVA17" mvn -q -B -DskipTests install)
fi
(cd "$HERE/chicory" && JAVA_HOME="$JAVA17" mvn -q -B package)
cp "$HERE/chicory/target/chicory-host.jar" "$TOOLS/chicory-host.jar"

echo
echo "Installed:"
echo "  module        $TOOLS/tdfcore.wasm ($(stat -c %s "$TOOLS/tdfcore.wasm") bytes, built by $(go version | cut -d' ' -f3))"
echo "  wasm-wazero   $("$TOOLS/wazero-host" --module "$TOOLS/tdfcore.wasm" --version)"
echo "  wasm-chicory  $("$JAVA17/bin/java" -jar "$TOOLS/chicory-host.jar" --module "$TOOLS/tdfcore.wasm" --version)"
echo "  wasm-node     $(node "$NODE_DIR/host.mjs" --module "$TOOLS/tdfcore.wasm" --version)"

if [[ "${1:-}" != "--no-check" ]]; then
  echo
  echo "== wasm: check.sh (every host's TDFs through the Go SDK) =="
  bash "$HERE/check.sh"
fi
