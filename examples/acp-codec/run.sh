#!/usr/bin/env bash
# The final measurement of examples/acp-codec: writes docs/results/acp-codec/
# (results.json, report.md, charts) and docs/results/acp-codec.md.
# Run install.sh first, on an otherwise idle machine. Takes 3-5 minutes on
# 2 cores. Extra arguments go to `versus run` (e.g. --runs 3 --warmup 1 for a
# quick look, with --out elsewhere).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
versus="$repo/target/release/versus"
if [ ! -x "$versus" ]; then
  (cd "$repo" && cargo build --release --locked)
fi
# The suite is given by its absolute path: this versus resolves a payload
# file against the suite's folder as given, and hands that path to commands
# that run in the suite's folder, so a relative suite path would break it.
exec "$versus" run "$here/acp-codec.toml" \
  --out "$repo/docs/results/acp-codec" \
  --markdown "$repo/docs/results/acp-codec.md" \
  "$@"
