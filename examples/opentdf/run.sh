#!/usr/bin/env bash
# The measurement of examples/opentdf (run install.sh first, on an idle
# machine): the whole suite, every size up to 100 MiB, published by
# scripts/publish.sh as docs/results/opentdf.md (and .html, charts, and
# docs/results/opentdf/results.json). Ratios are against go-sdk.
#
# versus exits with status 3 because some cells are operations an SDK does
# not offer (go-writer only encrypts; the Go SDK and the TypeScript client
# have no way to plug in a local unwrap): check-outcomes.py accepts those and
# no other failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[[ -x examples/opentdf/.tools/opentdf-go ]] || { echo "run.sh: run examples/opentdf/install.sh first" >&2; exit 1; }
status=0
scripts/publish.sh opentdf examples/opentdf/opentdf.toml || status=$?
[[ $status -eq 0 || $status -eq 3 ]] || exit "$status"
python3 examples/opentdf/check-outcomes.py docs/results/opentdf/results.json
