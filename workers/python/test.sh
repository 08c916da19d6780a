#!/usr/bin/env bash
# Tests the Python worker library: builds the wheel and sdist the way they
# would be published (python -m build, twine check, a look at their contents),
# installs the wheel into a throwaway virtual environment, runs the unit tests,
# then runs the protocol conformance scenarios with the versus core against
# conformance_worker.py. Nothing is uploaded.
# Needs python3 (3.9+) with pip and venv; build and twine (and pytest, if the
# machine has none) are installed from the package registry. VERSUS names a versus binary to use; without it the core
# is built (cargo build) and target/debug/versus is used.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-python3}"

step() { printf '\n== %s ==\n' "$*"; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/versus-worker-python.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
VENV="$TMP/venv"
PIP_FLAGS=(--disable-pip-version-check --quiet)

step "package (python -m build, twine check)"
# The packaging tools go into a venv of their own, from the package registry.
"$PYTHON" -m venv "$TMP/tools"
"$TMP/tools/bin/python" -m pip "${PIP_FLAGS[@]}" install build twine
"$TMP/tools/bin/python" -m build --outdir "$TMP/dist" "$HERE" >"$TMP/build.log" 2>&1 ||
    { cat "$TMP/build.log" >&2; exit 1; }
"$TMP/tools/bin/python" -m twine check --strict "$TMP"/dist/*
WHEEL="$(ls "$TMP"/dist/versus_worker-*.whl)"
SDIST="$(ls "$TMP"/dist/versus_worker-*.tar.gz)"
# Exactly the library in the wheel; the library, its tests and examples in the
# sdist; no caches or build leftovers in either.
"$TMP/tools/bin/python" - "$WHEEL" "$SDIST" <<'PY'
import sys, tarfile, zipfile

wheel, sdist = sys.argv[1:]
names = sorted(n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n)
modules = ["__init__.py", "_version.py", "protocol.py", "py.typed", "timing.py", "worker.py"]
want = ["versus_worker/" + m for m in modules]
if names != want:
    sys.exit(f"wheel holds {names}, expected {want}")
members = [n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n]
for need in ["PKG-INFO", "pyproject.toml", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "conformance_worker.py",
             "examples/sha256_worker.py", "tests/test_worker.py"]:
    if need not in members:
        sys.exit(f"sdist lacks {need}")
junk = [n for n in members if "__pycache__" in n or n.endswith(".pyc")
        or n.startswith((".", "build/", "dist/")) or "egg-info" in n]
if junk:
    sys.exit(f"sdist holds junk: {junk}")
print(f"{wheel.rsplit('/', 1)[1]}: {len(names)} files; "
      f"{sdist.rsplit('/', 1)[1]}: {len(members)} members")
PY

step "install the wheel into a fresh venv"
# --system-site-packages: a pytest already on the machine is used as is.
"$PYTHON" -m venv --system-site-packages "$VENV"
PIP=("$VENV/bin/python" -m pip "${PIP_FLAGS[@]}")
"${PIP[@]}" install "$WHEEL"
if ! "$VENV/bin/python" -c 'import pytest' 2>/dev/null; then
    "${PIP[@]}" install pytest
fi
(cd "$TMP" && "$VENV/bin/python" -c 'import versus_worker; print("versus-worker", versus_worker.__version__, "from", versus_worker.__file__)')

step "unit tests"
(cd "$HERE" && "$VENV/bin/python" -m pytest -p no:cacheprovider)

step "conformance"
if [[ -z "${VERSUS:-}" ]]; then
    (cd "$REPO" && cargo build --locked --quiet)
fi
# Run from outside the source tree so the worker imports the installed
# package, as a user's program would.
cd "$TMP"
"${VERSUS:-$REPO/target/debug/versus}" conformance -- \
    "$VENV/bin/python" "$HERE/conformance_worker.py"
