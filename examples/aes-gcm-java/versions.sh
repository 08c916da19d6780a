#!/usr/bin/env bash
# The version line of one implementation of aes-gcm-file.toml, whose JDK is a
# matrix parameter (not a variant): the provider as each of the three JDKs in
# .tools/ reports it, on one line. versus runs it as the implementation's
# `version` command, from this folder.
#
#   bash versions.sh sun|bc CLASSPATH
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
[[ $# -eq 2 ]] || { echo "usage: versions.sh sun|bc CLASSPATH" >&2; exit 2; }
for v in 17 21 25; do
  ".tools/jdk$v/bin/java" -cp "$2" dev.versus.examples.aesgcm.AesGcmWorker "$1" --version
done | paste -sd ';' | sed 's/;/; /g'
