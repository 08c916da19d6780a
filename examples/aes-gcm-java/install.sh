#!/usr/bin/env bash
# Builds the AES-GCM worker of examples/aes-gcm-java (SunJCE vs Bouncy Castle)
# and puts what the suite runs into this folder's .tools/:
#   .tools/aes-gcm-worker.jar                the worker (src/, pom.xml)
#   .tools/lib/versus-worker-0.1.0.jar       the versus Java worker library (workers/java)
#   .tools/lib/bcprov-jdk18on-1.86.jar       Bouncy Castle, from Maven Central, as published
# The worker library is installed into the local Maven repository (~/.m2) so
# that pom.xml can depend on it; Maven downloads its pinned plugins and
# bcprov there too. Then both JDKs run the worker's self-test: SunJCE and
# Bouncy Castle must give identical ciphertext and decrypt each other's.
# Idempotent: Maven rebuilds only what changed. MAVEN_REPO_LOCAL=DIR uses DIR
# as the local Maven repository instead of ~/.m2/repository (e.g. to time an
# install from scratch).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="$HERE/.tools"
JDK17=/usr/lib/jvm/java-17-openjdk-amd64
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64
BC_VERSION=1.86          # keep in step with pom.xml and aes-gcm.toml's classpath

need() { command -v "$1" >/dev/null || { echo "install.sh: '$1' not found in PATH" >&2; exit 1; }; }
need mvn
for jdk in "$JDK17" "$JDK25"; do
  [[ -x "$jdk/bin/java" ]] || { echo "install.sh: no JDK at $jdk" >&2; exit 1; }
done

# Quiet, batch-mode Maven without colour codes; built with JDK 17 (the pom
# targets Java 17 bytecode, which both JDKs run).
mvn_q() {
  JAVA_HOME="$JDK17" MAVEN_OPTS=-Djansi.noreset=true mvn -q -B -ntp -Dstyle.color=never \
    ${MAVEN_REPO_LOCAL:+-Dmaven.repo.local="$MAVEN_REPO_LOCAL"} "$@"
}

echo "== versus-worker (workers/java) into the local Maven repository =="
(cd "$REPO/workers/java" && mvn_q -DskipTests install)

echo "== aes-gcm-worker (bcprov-jdk18on $BC_VERSION) =="
(cd "$HERE" && mvn_q package)

mkdir -p "$TOOLS/lib"
rm -f "$TOOLS"/lib/*.jar
cp "$HERE/target/aes-gcm-worker.jar" "$TOOLS/"
cp "$HERE"/target/lib/*.jar "$TOOLS/lib/"
for jar in versus-worker-0.1.0.jar "bcprov-jdk18on-$BC_VERSION.jar"; do
  [[ -f "$TOOLS/lib/$jar" ]] || { echo "install.sh: $jar missing from target/lib" >&2; exit 1; }
done

CP="$TOOLS/aes-gcm-worker.jar:$TOOLS/lib/versus-worker-0.1.0.jar:$TOOLS/lib/bcprov-jdk18on-$BC_VERSION.jar"
echo "== self-test: SunJCE and Bouncy Castle agree, on both JDKs =="
for jdk in "$JDK17" "$JDK25"; do
  "$jdk/bin/java" -cp "$CP" dev.versus.examples.aesgcm.AesGcmWorker selftest | sed 's/^/  /'
done

echo
echo "Installed into $TOOLS:"
for jdk in "$JDK17" "$JDK25"; do
  for p in sun bc; do
    echo "  $p: $("$jdk/bin/java" -cp "$CP" dev.versus.examples.aesgcm.AesGcmWorker "$p" --version)"
  done
done
echo "  Maven: $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
