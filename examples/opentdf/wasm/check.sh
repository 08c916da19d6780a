#!/usr/bin/env bash
# Checks that every TDF the WASM module writes, through each host, is read
# back by the OpenTDF Go SDK: starts the KAS of ../kas on a free port in a
# temporary state folder, encrypts payloads of 0 B, 1 KB and 5 MB (three
# segments) in both manifest forms (4.2.2, 4.3.0) with each host named,
# decrypts each TDF with the same host (local unwrap), then with the Go SDK
# through the KAS (.tools/sdkcheck). install.sh runs it last, and each WASM
# implementation's suite setup runs it for its own host.
#
#   bash examples/opentdf/wasm/check.sh [wazero] [node] [chicory | chicory-interp | chicory-compiler]   # default: all
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOLS="$HERE/.tools"
WORK="$(mktemp -d)"
KAS_PID=""
cleanup() { [[ -n "$KAS_PID" ]] && kill "$KAS_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

hosts=("$@")
((${#hosts[@]})) || hosts=(wazero node chicory)

[[ -x "$TOOLS/kas" ]] || (cd "$HERE/../kas" && go build -trimpath -o "$TOOLS/kas" .)
"$TOOLS/kas" --state "$WORK/kas" --quiet 2>"$WORK/kas.log" &
KAS_PID=$!
for _ in $(seq 100); do [[ -s "$WORK/kas/kas-url" ]] && break; sleep 0.1; done
[[ -s "$WORK/kas/kas-url" ]] || { cat "$WORK/kas.log"; echo "check.sh: the KAS did not start" >&2; exit 1; }

head -c 0 /dev/urandom >"$WORK/p0"
head -c 1000 /dev/urandom >"$WORK/p1k"
head -c 5000000 /dev/urandom >"$WORK/p5m"

host_cmd() {
  case "$1" in
    wazero) echo "$TOOLS/wazero-host --module $TOOLS/tdfcore.wasm" ;;
    node) echo "node --no-warnings $HERE/node/host.mjs --module $TOOLS/tdfcore.wasm" ;;
    chicory-*) echo "/usr/lib/jvm/java-17-openjdk-amd64/bin/java -jar $TOOLS/chicory-host.jar --mode ${1#chicory-} --module $TOOLS/tdfcore.wasm" ;;
  esac
}

pairs=()
for host in "${hosts[@]}"; do
  [[ "$host" == chicory ]] && variants=(chicory-interp chicory-compiler) || variants=("$host")
  for h in "${variants[@]}"; do
    cmd="$(host_cmd "$h")"
    for v in 4.2.2 4.3.0; do
      enc=(); dec=()
      for p in p0 p1k p5m; do
        tdf="$WORK/$h-$v-$p.tdf"
        enc+=("$WORK/$p" "$tdf"); dec+=("$tdf" "$tdf.out"); pairs+=("$WORK/$p" "$tdf")
      done
      $cmd --state "$WORK/kas" --tdf-version "$v" encrypt "${enc[@]}"
      $cmd --state "$WORK/kas" decrypt "${dec[@]}"
      for p in p0 p1k p5m; do
        cmp -s "$WORK/$p" "$WORK/$h-$v-$p.tdf.out" || { echo "check.sh: $h $v $p: local round trip differs" >&2; exit 1; }
      done
    done
    echo "$h: local round trips ok (0 B, 1 KB, 5 MB; 4.2.2 and 4.3.0)"
  done
done
"$TOOLS/sdkcheck" --state "$WORK/kas" "${pairs[@]}" | sed "s|$WORK/||"
