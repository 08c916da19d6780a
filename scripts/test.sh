#!/usr/bin/env bash
# Runs every test of the project, installing what the tests need first.
# A fresh machine needs only the base toolchains (Rust via rustup, Python 3,
# Node 20, Go, a JDK with Maven); each worker library's test.sh installs its
# own test dependencies from the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

step() { printf '\n== %s ==\n' "$*"; }

step "toolchain components"
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --check

step "lint"
cargo clippy --locked --all-targets -- -D warnings

step "core tests"
cargo test --locked

step "versus binary for the worker conformance runs"
cargo build --locked --quiet
export VERSUS="$root/target/debug/versus"

step "scheduler recipes against their schemas"
bash scripts/ci/recipes.sh

step "Slurm job array: 3 pieces of the quickstart on a one-node cluster, merged"
bash tests/slurm/run.sh

step "HTML report in headless Chromium"
bash tests/browser/run.sh

for lang in python node go java rust; do
  step "worker library: $lang"
  bash "workers/$lang/test.sh"
done
