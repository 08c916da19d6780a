#!/usr/bin/env bash
# Tests the Python worker library: installs it the normal way (pip) into a
# throwaway virtual environment, runs the unit tests, then runs the protocol
# conformance scenarios with the versus core against conformance_worker.py.
# Needs python3 (3.9+) with pip; pytest is installed from the registry if the
# machine has none. VERSUS names a versus binary to use; without it the core
# is built (cargo build) and target/debug/versus is used.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-python3}"

step() { printf '\n== %s ==\n' "$*"; }

VENV="$(mktemp -d "${TMPDIR:-/tmp}/versus-worker-python.XXXXXX")"
trap 'rm -rf "$VENV"' EXIT

step "install versus-worker"
# --system-site-packages: a pytest already on the machine is used as is.
"$PYTHON" -m venv --system-site-packages "$VENV"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check --quiet)
"${PIP[@]}" install "$HERE"
if ! "$VENV/bin/python" -c 'import pytest' 2>/dev/null; then
    "${PIP[@]}" install pytest
fi
"$VENV/bin/python" -c 'import versus_worker; print("versus-worker", versus_worker.__version__)'

step "unit tests"
(cd "$HERE" && "$VENV/bin/python" -m pytest -p no:cacheprovider)

step "conformance"
if [[ -z "${VERSUS:-}" ]]; then
    (cd "$REPO" && cargo build --locked --quiet)
fi
# Run from outside the source tree so the worker imports the installed
# package, as a user's program would.
cd "$VENV"
"${VERSUS:-$REPO/target/debug/versus}" conformance -- \
    "$VENV/bin/python" "$HERE/conformance_worker.py"
