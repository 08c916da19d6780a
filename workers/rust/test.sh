#!/usr/bin/env bash
# Tests the Rust worker library: format, lint, unit and transport tests, the
# crate as it would be published (cargo package builds and compiles the
# .crate, and its file list is checked), then the versus conformance scenarios
# against examples/conformance_worker.rs.
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

step "package (cargo package: build the .crate and compile it; nothing is uploaded)"
# --allow-dirty: a working tree with uncommitted changes is packed as it is.
cargo package --locked --allow-dirty --list >target/package-list.txt
# Only the library, its examples and tests, the build script and the
# manifests; .cargo_vcs_info.json appears when packing from a git checkout.
junk="$(grep -v -x -E 'Cargo\.(toml|toml\.orig|lock)|\.cargo_vcs_info\.json|README\.md|LICENSE-(MIT|APACHE)|build\.rs|(src|examples|tests)/[a-z0-9_]+\.rs' \
  target/package-list.txt || true)"
if [[ -n "$junk" ]]; then
  echo "cargo package would ship files that do not belong in the crate:" >&2
  echo "$junk" >&2
  exit 1
fi
for need in Cargo.toml Cargo.lock README.md LICENSE-MIT LICENSE-APACHE build.rs src/lib.rs examples/conformance_worker.rs; do
  grep -q -x -F "$need" target/package-list.txt || { echo "the crate lacks $need" >&2; exit 1; }
done
cargo package --locked --allow-dirty --quiet
crate="$(ls target/package/versus-worker-*.crate)"
echo "$(basename "$crate"): $(wc -l <target/package-list.txt) files, $(wc -c <"$crate") bytes"

step "conformance"
cargo build --locked --release --example conformance_worker
if [[ -z "${VERSUS:-}" ]]; then
  (cd "$REPO" && cargo build --locked)
fi
"${VERSUS:-$REPO/target/debug/versus}" conformance -- "$HERE/target/release/examples/conformance_worker"
