#!/usr/bin/env bash
# The final measurement of examples/sha256 (run install.sh first, on an idle
# machine): docs/results/sha256.md, sha256.html and docs/results/sha256/results.json.
# Extra arguments go to `versus run`.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../../scripts/publish.sh" sha256 examples/sha256/sha256.toml "$@"
