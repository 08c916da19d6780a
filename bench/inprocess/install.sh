#!/usr/bin/env bash
# Builds everything bench/inprocess.sh measures, in this folder: for each
# language the native benchmark (criterion, testing.B, JMH, mitata, pyperf)
# and the versus worker, on the same functions. Idempotent; re-run after
# changing a worker library. Versions are pinned: rust/Cargo.lock,
# go/go.mod (no dependencies but the worker library), java/pom.xml,
# node/package-lock.json, python/requirements.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
JAVA_HOME="${JAVA_HOME17:-/usr/lib/jvm/java-17-openjdk-amd64}"
export JAVA_HOME

echo "== rust: criterion bench and worker (release) =="
(cd "$here/rust" && cargo build --quiet --locked --release --bin worker && cargo bench --quiet --locked --bench native --no-run 2>&1 | grep -v '^ *Executable' || true)

echo "== go: worker and test binary =="
(cd "$here/go" && mkdir -p .bin && go build -o .bin/worker . && go test -c -o .bin/native.test .)

echo "== java: versus-worker into the local Maven repository, then benchmarks.jar (JMH + worker) =="
(cd "$repo/workers/java" && MAVEN_OPTS=-Djansi.noreset=true mvn -q -B -ntp -Dstyle.color=never -DskipTests install)
(cd "$here/java" && MAVEN_OPTS=-Djansi.noreset=true mvn -q -B -ntp -Dstyle.color=never package)

echo "== node: npm ci (mitata, and versus-worker linked from the checkout) =="
(cd "$here/node" && npm ci --no-audit --no-fund --loglevel=error)

echo "== python: .venv with pyperf and versus-worker =="
if [[ ! -x "$here/python/.venv/bin/python" ]]; then
  python3 -m venv "$here/python/.venv"
fi
"$here/python/.venv/bin/pip" install --quiet --disable-pip-version-check \
  -r "$here/python/requirements.txt" "$repo/workers/python"
echo "built into $here"
