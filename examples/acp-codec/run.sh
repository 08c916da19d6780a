#!/usr/bin/env bash
# The final measurement of examples/acp-codec (run install.sh first, on an
# idle machine; 3-5 minutes on 2 cores): docs/results/acp-codec.md,
# acp-codec.html and docs/results/acp-codec/results.json. Extra arguments go
# to `versus run` (e.g. --runs 3 --warmup 1 for a quick look).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/../../scripts/publish.sh" acp-codec examples/acp-codec/acp-codec.toml "$@"
