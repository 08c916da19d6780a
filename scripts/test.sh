#!/usr/bin/env bash
# Runs every test of the project, installing what the tests need first.
# A fresh machine needs only the base toolchains (Rust via rustup, Python 3).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s ==\n' "$*"; }

step "toolchain components"
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --check

step "lint"
cargo clippy --locked --all-targets -- -D warnings

step "tests"
cargo test --locked
