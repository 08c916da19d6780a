#!/usr/bin/env bash
# The final measurement of examples/acp-codec (run install.sh first, on an
# idle machine): docs/results/acp-codec.md (the mixed stream: parse, decode,
# encode_decode, cold_start, bare_start, process, process_raw) and docs/results/
# acp-codec-tokens.md (token throughput), each with its .html and results.json.
# Extra arguments go to `versus run` (e.g. --runs 3 --warmup 1 for a quick look).
set -euo pipefail
publish="$(dirname "${BASH_SOURCE[0]}")/../../scripts/publish.sh"
"$publish" acp-codec examples/acp-codec/acp-codec.toml "$@"
"$publish" acp-codec-tokens examples/acp-codec/acp-codec-tokens.toml "$@"
