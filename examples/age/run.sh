#!/usr/bin/env bash
# The final measurement of examples/age (run install.sh first, on an idle
# machine): docs/results/age.md, age.html and docs/results/age/results.json.
# Extra arguments go to `versus run`.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../../scripts/publish.sh" age examples/age/age.toml "$@"
