#!/usr/bin/env bash
# Builds the five SHA-256 workers of examples/sha256 from the worker libraries
# in this repository, into this folder (.venv/ and .tools/), and records the
# toolchain versions. Idempotent; re-run after changing a worker library.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
tools="$here/.tools"
mkdir -p "$tools"

echo "== python: venv with versus-worker =="
if [ ! -x "$here/.venv/bin/python" ]; then
  python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install --quiet --disable-pip-version-check "$repo/workers/python"

echo "== go: sha256-worker =="
(cd "$repo/workers/go" && go build -o "$tools/sha256-worker-go" ./examples/sha256-worker)

echo "== java: versus-worker jar =="
(cd "$repo/workers/java" && MAVEN_OPTS=-Djansi.noreset=true mvn -q -B -ntp -Dstyle.color=never -DskipTests package)
cp "$repo"/workers/java/target/versus-worker-0.1.0.jar "$tools/versus-worker.jar"

echo "== rust: sha256_worker (release) =="
(cd "$repo/workers/rust" && cargo build --quiet --locked --release --example sha256_worker)
cp "$repo/workers/rust/target/release/examples/sha256_worker" "$tools/sha256-worker-rust"

echo "== node: no build step (the library has no dependencies) =="
node --version
echo "installed into $tools and $here/.venv"
