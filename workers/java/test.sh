#!/usr/bin/env bash
# Tests the Java worker library: unit tests (JUnit 5 via Maven Surefire) and the
# three jars Maven Central takes (library, sources, javadoc), then the
# protocol conformance suite run by the versus core against ConformanceWorker,
# on the default JDK and on any extra JDK listed in VERSUS_JAVA_EXTRA (by
# default every Temurin JDK under /usr/lib/jvm), since the jar must run on each.
#
# Environment:
#   VERSUS             the versus binary (default: REPO/target/debug/versus, built if missing)
#   VERSUS_JAVA_EXTRA  space-separated extra `java` binaries to run conformance with
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

# The base toolchain: a JDK (17 or newer) and Maven. Maven fetches the pinned
# plugins and JUnit from the package registry on first use.
if ! command -v java >/dev/null || ! command -v javac >/dev/null || ! command -v mvn >/dev/null; then
  echo "test.sh: installing a JDK and Maven (apt)"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q openjdk-17-jdk-headless maven
fi

# Unit tests, then the jars (package runs the tests first): the library, its
# sources and its javadoc, as they would be published. Nothing is signed (gpg
# is in the `release` profile, which this script does not activate) or uploaded.
# jansi.noreset: Debian's Maven 3.8 otherwise ends its output with colour resets.
MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -ntp -Dstyle.color=never package

# package also builds the sources and javadoc jars Maven Central requires
# beside the main one; check that each holds what it should.
JAR="$(ls "$HERE"/target/versus-worker-*.jar | grep -v -E -- '-(sources|javadoc)\.jar$' | head -n 1)"
BASE="${JAR%.jar}"
has() { # has JAR ENTRY...: every ENTRY is in JAR
  local jar="$1" entry; shift
  local list; list="$(jar tf "$jar")"
  for entry in "$@"; do
    grep -q -x -F "$entry" <<<"$list" || { echo "test.sh: $jar lacks $entry" >&2; exit 1; }
  done
  echo "$(basename "$jar"): $(wc -l <<<"$list") entries"
}
has "$JAR" dev/versus/worker/Worker.class dev/versus/worker/ConformanceWorker.class \
  META-INF/maven/dev.versus/versus-worker/pom.xml
has "$BASE-sources.jar" dev/versus/worker/Worker.java
has "$BASE-javadoc.jar" index.html dev/versus/worker/Worker.html
if ! grep -q -E '^[[:space:]]*<licenses>' pom.xml; then
  echo "test.sh: pom.xml has no <licenses>; Maven Central refuses such a pom" >&2; exit 1
fi

if [ -z "${VERSUS:-}" ] && [ ! -x "$REPO/target/debug/versus" ]; then
  echo "test.sh: building versus (cargo build)"
  (cd "$REPO" && cargo build --quiet)
fi
VERSUS="${VERSUS:-$REPO/target/debug/versus}"

if [ -z "${VERSUS_JAVA_EXTRA+set}" ]; then
  VERSUS_JAVA_EXTRA="$(ls /usr/lib/jvm/temurin-*/bin/java 2>/dev/null | tr '\n' ' ' || true)"
fi

for JAVA in java $VERSUS_JAVA_EXTRA; do
  echo "conformance with $("$JAVA" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java.home = //p') ($JAVA)"
  "$VERSUS" conformance -- "$JAVA" -cp "$JAR" dev.versus.worker.ConformanceWorker
done
