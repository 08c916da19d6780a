#!/usr/bin/env bash
# Installs the three age implementations compared by this example, all inside
# this folder (never system-wide):
#   .tools/bin/age, age-keygen    Go,   via `go install`
#   .tools/bin/rage, rage-keygen  Rust, via `cargo install` (compiles, a few minutes)
#   js/node_modules               JS,   the npm package age-encryption (npm ci)
# and the in-process workers of the library suites (age-lib.toml,
# age-keygen.toml, age-keys.toml, age-random.toml):
#   .tools/bin/age-bench-go       Go,   go/ (filippo.io/age, go.mod + go.sum)
#   .tools/bin/age-bench-rust     Rust, rust/ (age crate, Cargo.lock, --locked)
#   js/bench-worker.mjs           JS,   needs only js/node_modules
# Idempotent: whatever is already installed at the pinned version is skipped.
set -euo pipefail

AGE_VERSION=1.3.2        # Go module filippo.io/age
RAGE_VERSION=0.12.1      # Rust crate rage
# The JS version is pinned in js/package.json (+ js/package-lock.json).

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOLS="$HERE/.tools"
BIN="$TOOLS/bin"
mkdir -p "$BIN"

need() { command -v "$1" >/dev/null || { echo "install.sh: '$1' not found in PATH" >&2; exit 1; }; }
need go; need cargo; need node; need npm

# --- age (Go) ---------------------------------------------------------------
if [[ -x "$BIN/age" && -x "$BIN/age-keygen" && "$("$BIN/age" --version 2>/dev/null)" == "v$AGE_VERSION" ]]; then
  echo "age v$AGE_VERSION: already installed"
else
  echo "age v$AGE_VERSION: installing..."
  GOBIN="$BIN" go install "filippo.io/age/cmd/...@v$AGE_VERSION"
fi

# --- rage (Rust) ------------------------------------------------------------
if [[ -x "$BIN/rage" && -x "$BIN/rage-keygen" && "$("$BIN/rage" --version 2>/dev/null)" == "rage $RAGE_VERSION" ]]; then
  echo "rage $RAGE_VERSION: already installed"
else
  echo "rage $RAGE_VERSION: installing (compiling, this takes a while)..."
  cargo install rage --version "$RAGE_VERSION" --locked --root "$TOOLS" --force
fi

# --- age-encryption (JS) ----------------------------------------------------
JS="$HERE/js"
want_js="$(node -p "require('$JS/package.json').dependencies['age-encryption']")"
have_js="$(node -p "try { require('$JS/node_modules/age-encryption/package.json').version } catch { '' }")"
# npm ci wipes and reinstalls node_modules; skip it when the lock file is
# unchanged since the last install (npm keeps a copy in node_modules).
if [[ "$have_js" == "$want_js" && -f "$JS/node_modules/.package-lock.json" \
      && ! "$JS/package-lock.json" -nt "$JS/node_modules/.package-lock.json" ]]; then
  echo "age-encryption $want_js: already installed"
else
  echo "age-encryption $want_js: installing..."
  (cd "$JS" && npm ci --no-audit --no-fund --loglevel=error)
fi

# --- in-process workers (Go and Rust) --------------------------------------------
echo "age-bench-go: building (go/)..."
(cd "$HERE/go" && go build -trimpath -o "$BIN/age-bench-go" .)
echo "age-bench-rust: building (rust/, the first build compiles the age crate)..."
(cd "$HERE/rust" && cargo build --quiet --locked --release)
cp "$HERE/rust/target/release/age-bench-rust" "$BIN/age-bench-rust"

echo
echo "Installed:"
echo "  age   (Go):   $("$BIN/age" --version)"
echo "  rage  (Rust): $("$BIN/rage" --version)"
echo "  JS:           $(node "$JS/age-js.mjs" --version)"
echo "  workers:      $("$BIN/age-bench-go" --version); $("$BIN/age-bench-rust" --version); $(node "$JS/bench-worker.mjs" --version)"
