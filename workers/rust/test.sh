#!/usr/bin/env bash
# Tests the Rust worker library: format, lint, unit and transport tests, then
# the versus conformance scenarios against examples/conformance_worker.rs.
# A fresh machine needs only rustup's cargo; crates come from the registry at
# the versions in Cargo.lock.
#
#   bash workers/rust/test.sh              # builds versus from this repo first
#   VERSUS=/path/to/versus bash workers/rust/test.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"
# The binaries are found in cargo's default target folders below.
unset CARGO_TARGET_DIR

step() { printf '\n== %s ==\n' "$*"; }

step "toolchain components and crates"
rustup component add rustfmt clippy >/dev/null 2>&1 || true
cargo fetch --locked

step "format"
cargo fmt --check

step "lint"
cargo clippy --locked --all-targets -- -D warnings

step "unit tests"
cargo test --locked

step "conformance"
cargo build --locked --release --example conformance_worker
if [[ -z "${VERSUS:-}" ]]; then
  (cd "$REPO" && cargo build --locked)
fi
"${VERSUS:-$REPO/target/debug/versus}" conformance -- "$HERE/target/release/examples/conformance_worker"
