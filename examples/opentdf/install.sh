#!/usr/bin/env bash
# Installs and builds everything examples/opentdf runs, from the package
# registries, into this folder:
#
#   .tools/kas                  the key-access service (kas/, Go modules)
#   .tools/opentdf-go           the Go SDK worker and payload generator
#                               (go/: github.com/opentdf/platform/sdk v0.35.0)
#   .tools/java/                the Java SDK worker jar and its dependencies
#                               (java/pom.xml: io.opentdf.platform:sdk 0.7.3)
#   node/node_modules/          @opentdf/client 1.3.0 (node/package-lock.json)
#
# then examples/opentdf/wasm/install.sh if it exists (the WASM hosts).
# The versus worker libraries come from this checkout (workers/go by a
# replace directive, workers/java installed into the local Maven repository,
# workers/node as a file: dependency). Idempotent. Needs go, mvn, node/npm
# and OpenJDK 17 (the Java worker is built for Java 17 and also runs on 25).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="$HERE/.tools"
JDK17=/usr/lib/jvm/java-17-openjdk-amd64
mkdir -p "$TOOLS/java/lib"

need() { command -v "$1" >/dev/null || { echo "install.sh: '$1' not found in PATH" >&2; exit 1; }; }
need go; need mvn; need node; need npm
[[ -x "$JDK17/bin/java" ]] || { echo "install.sh: no JDK at $JDK17" >&2; exit 1; }

echo "== go: kas =="
(cd "$HERE/kas" && go build -trimpath -o "$TOOLS/kas" .)

echo "== go: opentdf-go (Go SDK worker, payload generator) =="
(cd "$HERE/go" && go build -trimpath -o "$TOOLS/opentdf-go" .)

mvn_q() {
  JAVA_HOME="$JDK17" MAVEN_OPTS=-Djansi.noreset=true mvn -q -B -ntp -Dstyle.color=never \
    ${MAVEN_REPO_LOCAL:+-Dmaven.repo.local="$MAVEN_REPO_LOCAL"} "$@"
}
echo "== java: versus-worker (workers/java) into the local Maven repository =="
(cd "$REPO/workers/java" && mvn_q -DskipTests install)
echo "== java: opentdf-java-worker =="
(cd "$HERE/java" && mvn_q package)
rm -f "$TOOLS"/java/lib/*.jar
cp "$HERE/java/target/opentdf-java-worker.jar" "$TOOLS/java/"
cp "$HERE"/java/target/lib/*.jar "$TOOLS/java/lib/"

echo "== node: npm ci =="
if [[ -f "$HERE/node/node_modules/.package-lock.json" \
      && ! "$HERE/node/package-lock.json" -nt "$HERE/node/node_modules/.package-lock.json" ]]; then
  echo "node_modules up to date"
else
  (cd "$HERE/node" && npm ci --no-audit --no-fund --loglevel=error)
fi

if [[ -f "$HERE/wasm/install.sh" ]]; then
  echo "== wasm: wasm/install.sh =="
  bash "$HERE/wasm/install.sh"
fi

echo
echo "Installed:"
echo "  go-sdk, go-writer  $("$TOOLS/opentdf-go" version)"
for jdk in "$JDK17" /usr/lib/jvm/temurin-25-jdk-amd64; do
  [[ -x "$jdk/bin/java" ]] && echo "  java-sdk           $("$jdk/bin/java" -cp "$TOOLS/java/opentdf-java-worker.jar:$TOOLS/java/lib/*" \
    dev.versus.examples.opentdf.OpenTdfWorker --version 2>/dev/null)"
done
echo "  ts-sdk             $(node "$HERE/node/worker.mjs" --version)"
