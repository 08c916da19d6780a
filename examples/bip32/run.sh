#!/usr/bin/env bash
# The final measurement of examples/bip32: every implementation, every
# operation, with the suite's settings (30 runs after 15 warm-up runs per
# cell, samples of at least 50 ms), into docs/results/bip32/ and
# docs/results/bip32.md. Run install.sh first. Takes about 5 minutes.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VERSUS="${VERSUS:-$REPO/target/release/versus}"
[[ -x "$VERSUS" ]] || (cd "$REPO" && cargo build --release --quiet)
exec "$VERSUS" run "$HERE/bip32.toml" \
  --out "$REPO/docs/results/bip32" \
  --markdown "$REPO/docs/results/bip32.md" "$@"
