#!/usr/bin/env bash
# A quick versus run of the WASM implementations alone: examples/opentdf's
# smoke check (256 B and 1 MiB, one warm-up and one measured run per cell,
# every output check) narrowed to the WASM hosts. The KAS gets a free port
# from versus ({port}); run examples/opentdf/install.sh first.
#
#   bash examples/opentdf/wasm/smoke.sh
#
# VERSUS=/path/to/versus picks the binary.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$HERE/../smoke.sh" wasm-wazero,wasm-chicory-interp,wasm-chicory-compiler,wasm-node
