#!/usr/bin/env bash
# Runs every test of the project, installing what the tests need first.
# A fresh machine needs only the base toolchains (Rust via rustup, Python 3,
# Node 20, Go, a JDK with Maven); each worker library's test.sh installs its
# own test dependencies from the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

step() { printf '\n== %s ==\n' "$*"; }

# Tests never write into the user's store or cache: every file versus would
# keep there by default that is newer than this mark fails the command at
# its end (the checkout's .versus/ too).
mark=$(mktemp)
user_dirs=("${XDG_CACHE_HOME:-$HOME/.cache}/versus" "${XDG_DATA_HOME:-$HOME/.local/share}/versus" .versus)

step "toolchain components"
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "format"
cargo fmt --check

step "lint"
cargo clippy --locked --all-targets -- -D warnings

step "valgrind for the instruction-count tests (tests/instructions.rs)"
# valgrind counts instructions where the machine has no hardware counters
# (tests/instructions.rs runs it for about half a minute).
if ! command -v valgrind >/dev/null; then
  sudo_=""; [[ $(id -u) == 0 ]] || sudo_=sudo
  $sudo_ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq valgrind >/dev/null
fi

step "PostgreSQL server for the history store's tests"
# Stopped on any exit; the store's PostgreSQL tests skip (saying why) without it.
trap 'bash scripts/ci/postgres.sh stop' EXIT
source scripts/ci/postgres.sh start

step "core tests"
cargo test --locked

step "versus binary for the worker conformance runs"
cargo build --locked --quiet
export VERSUS="$root/target/debug/versus"

step "the GitHub Action's script: a recorded pull_request event, a fake comment API on loopback"
python3 -m unittest discover -s scripts/action -p 'test_*.py'

step "versus exec against hyperfine, flag by flag"
bash scripts/ci/hyperfine.sh

step "versus import and the exports against the real tools (hyperfine, pyperf, benchstat, criterion, JMH, Google Benchmark, pytest-benchmark)"
bash scripts/ci/formats.sh

step "progress in an 80-column terminal (tmux)"
bash scripts/ci/terminal.sh

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

# The OpenTDF example end to end (install from the registries, then 256 B
# and 1 MiB through every implementation with every output check). Its
# install downloads the OpenTDF Go, Java and npm dependency trees, which puts
# a fresh CI run past its time budget, so it runs only when asked:
#   VERSUS_CI_EXAMPLES=1 bash scripts/test.sh
if [[ "${VERSUS_CI_EXAMPLES:-}" == 1 ]]; then
  step "examples/opentdf: install, then the smoke subset"
  bash examples/opentdf/install.sh
  bash examples/opentdf/smoke.sh
fi

step "nothing written into the user's store or cache"
written=$(find "${user_dirs[@]}" -type f -newer "$mark" 2>/dev/null || true)
rm -f "$mark"
if [[ -n "$written" ]]; then
  echo "FAIL: the tests wrote into the user's store or cache:" >&2
  echo "$written" >&2
  exit 1
fi
echo "none of ${user_dirs[*]} holds a file the tests wrote"
