#!/usr/bin/env bash
# A quick versus run of the WASM implementations alone (implementations.toml)
# at small sizes, one warm-up and one measured run per cell: proves each host
# works as a versus worker and passes every output check. The suite is made
# in a temporary folder beside links to examples/opentdf's .tools and to this
# folder, so the fragment's paths (relative to examples/opentdf) resolve;
# the KAS and the payload generator come from examples/opentdf/install.sh.
#
#   bash examples/opentdf/wasm/smoke.sh [SIZES] [--only ...]   # SIZES default: "1KiB","1MiB"
#
# VERSUS=/path/to/versus picks the binary.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OPENTDF="$(cd "$HERE/.." && pwd)"
VERSUS="${VERSUS:-versus}"
SIZES="${1:-\"1KiB\", \"1MiB\"}"
shift || true
DIR="$(mktemp -d)"
# A free port for the KAS (versus builds without the {port} placeholder).
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ln -s "$OPENTDF/.tools" "$DIR/.tools"
ln -s "$HERE" "$DIR/wasm"
cat >"$DIR/suite.toml" <<TOML
name = "OpenTDF WASM hosts (smoke)"

[settings]
runs = 1
warmup = 1
min_sample_time = "20ms"
timeout = "5m"

[matrix]
size = [$SIZES]

[payload]
command = ".tools/opentdf-go payload --size {size} --out {out} --state .kas-state"

[operations.encrypt]

[operations.decrypt-local]
roundtrip = true

[operations.decrypt-go-tdf]
roundtrip = true

[services.kas]
command = ".tools/kas --port $PORT --state .kas-state --quiet"
ready_http = "http://127.0.0.1:$PORT/healthz"
ready_timeout = "30s"

TOML
# The fragment, without the override for a size the smoke matrix lacks, and
# without --kas-url (the {kas.port} placeholder is newer than some versus
# builds; the hosts then take the URL from .kas-state/kas-url).
sed -e '/^\[\[override\]\]/,$d' -e 's| --kas-url http://127.0.0.1:{kas.port}/kas||' \
  "$HERE/implementations.toml" >>"$DIR/suite.toml"
status=0
"$VERSUS" run "$DIR/suite.toml" --out "$DIR/out" "$@" || status=$?
echo "smoke: exit $status; report in $DIR/out/report.md"
exit "$status"
