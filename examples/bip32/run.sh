#!/usr/bin/env bash
# The final measurement of examples/bip32: every implementation, every
# operation, with the suite's settings (30 runs after 15 warm-up runs per
# cell, samples of at least 50 ms), into docs/results/bip32.md, bip32.html
# and docs/results/bip32/. Run install.sh first. Takes about 5 minutes.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../../scripts/publish.sh" bip32 examples/bip32/bip32.toml "$@"
