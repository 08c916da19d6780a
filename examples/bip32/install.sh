#!/usr/bin/env bash
# Installs and builds the seven BIP32 implementations of examples/bip32, all
# inside this folder except the Debian toolchain packages:
#
#   .venv/                       PyPI bip32 (python/requirements.txt) + versus-worker
#   node/node_modules/           npm bip32, tiny-secp256k1, @bitcoinerlab/secp256k1,
#                                @bitgo/utxo-lib, @bitgo/wasm-utxo (BitGo's published
#                                WASM, the seed's own column) (node/package-lock.json)
#                                + versus-worker
#   .tools/bip32-worker          the Rust worker, native (rustup's cargo)
#   .tools/bip32_wasm.wasm       the same Rust code for wasm32-unknown-unknown
#   .tools/bip32_wasm_size.wasm  (opt-level 3, and opt-level "z"), built with
#                                Debian's rustc-web toolchain (see below)
#   .tools/bindgen/              the seed report's build of the same code: opt-level
#                                "z", the wasm-bindgen CLI (.tools/wasm-bindgen-cli,
#                                from crates.io) and wasm-opt -O4 (npm binaryen)
#
# The wasm32 target: rustup's wasm32 standard library cannot be downloaded
# here (only package registries are reachable), so the module is built with
# Debian's rustc-web/cargo-web (which know wasm32-unknown-unknown) and their
# standard-library source (rust-web-src), rebuilding std for wasm32 with
# -Zbuild-std (RUSTC_BOOTSTRAP=1 unlocks that on a stable compiler). Those
# packages install /usr/bin/cargo and /usr/bin/rustc; rustup's ~/.cargo/bin
# stays first on PATH, so they never replace rustup's for anything else:
# they are called here by full path only, and the script checks that a
# normal shell still finds rustup's cargo.
#
# Idempotent: installed pieces are checked and skipped; cargo rebuilds only
# what changed. Needs: node + npm, python3, rustup's cargo, and root for
# apt-get (only when the Debian packages are missing).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="$HERE/.tools"
mkdir -p "$TOOLS"

# Debian bookworm packages (bookworm-security), pinned; if the archive has
# moved on to a newer revision, the candidate is installed with a warning.
DEB_PACKAGES=(
  "rustc-web=1.96.0+dfsg1-1~deb12u2"
  "cargo-web=1.96.0+dfsg1-1~deb12u2"
  "rust-web-src=1.96.0+dfsg1-1~deb12u2"
  "rust-web-llvm=1.96.0+dfsg1-1~deb12u2"
  "lld-22=1:22.1.8-1~deb12u1"
)
DEB_CARGO=/usr/bin/cargo      # from cargo-web
DEB_RUSTC=/usr/bin/rustc      # from rustc-web
DEB_RUSTDOC=/usr/bin/rustdoc  # from rustc-web

need() { command -v "$1" >/dev/null || { echo "install.sh: '$1' not found in PATH" >&2; exit 1; }; }
need node; need npm; need python3; need cargo

# --- Debian's wasm32-capable Rust toolchain --------------------------------
missing=()
for spec in "${DEB_PACKAGES[@]}"; do
  pkg="${spec%%=*}"
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$spec")
done
if ((${#missing[@]})); then
  echo "== apt: ${missing[*]} =="
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    echo "install.sh: WARNING: the pinned versions are not available; installing the current ones" >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]%%=*}"
  fi
else
  echo "== apt: rustc-web, cargo-web, rust-web-src, rust-web-llvm, lld-22 already installed =="
fi
for f in "$DEB_CARGO" "$DEB_RUSTC" "$DEB_RUSTDOC"; do
  [[ -x "$f" ]] || { echo "install.sh: $f missing after installing the Debian packages" >&2; exit 1; }
done
# rustup's cargo must still win in a normal shell.
for shell_cargo in "$(command -v cargo)" "$(bash -lc 'command -v cargo' 2>/dev/null || true)"; do
  if [[ "$shell_cargo" != "$HOME/.cargo/bin/cargo" ]]; then
    echo "install.sh: WARNING: 'cargo' resolves to '$shell_cargo', not rustup's $HOME/.cargo/bin/cargo:" \
         "put ~/.cargo/bin before /usr/bin in PATH" >&2
  fi
done

# --- Python: PyPI bip32 --------------------------------------------------------
echo "== python: .venv with bip32 (python/requirements.txt) and versus-worker =="
[[ -x "$HERE/.venv/bin/python" ]] || python3 -m venv "$HERE/.venv"
"$HERE/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/python/requirements.txt" "$REPO/workers/python"

# --- Node: npm packages ------------------------------------------------------
NODE_DIR="$HERE/node"
# npm ci wipes and reinstalls node_modules: skip it when the lock file is
# unchanged since the last install (npm keeps a copy in node_modules).
if [[ -f "$NODE_DIR/node_modules/.package-lock.json" && -x "$NODE_DIR/node_modules/.bin/wasm-opt" \
      && ! "$NODE_DIR/package-lock.json" -nt "$NODE_DIR/node_modules/.package-lock.json" ]]; then
  echo "== node: node_modules up to date =="
else
  echo "== node: npm ci =="
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error)
fi

# --- Rust, native (rustup) ---------------------------------------------------
echo "== rust: bip32-worker (native, release) =="
(cd "$HERE/rust" && cargo build --quiet --locked --release -p bip32-worker)
cp "$HERE/rust/target/release/bip32-worker" "$TOOLS/bip32-worker"

# --- Rust, wasm32 (Debian's toolchain) -----------------------------------------
# Two builds of the same crate: profile `wasm` (opt-level 3, for speed) and
# profile `wasm-size` (opt-level "z", as the seed report's build). Each first
# build compiles std for wasm32 with its profile (minutes).
for profile in wasm wasm-size; do
  echo "== rust: bip32_wasm.wasm, profile $profile (wasm32-unknown-unknown, Debian's cargo) =="
  (cd "$HERE/rust" && env RUSTC="$DEB_RUSTC" RUSTDOC="$DEB_RUSTDOC" RUSTC_BOOTSTRAP=1 \
    "$DEB_CARGO" build --quiet --locked --profile "$profile" --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort -p bip32-wasm --target-dir "$HERE/rust/target/wasm-build")
done
cp "$HERE/rust/target/wasm-build/wasm32-unknown-unknown/wasm/bip32_wasm.wasm" "$TOOLS/bip32_wasm.wasm"
cp "$HERE/rust/target/wasm-build/wasm32-unknown-unknown/wasm-size/bip32_wasm.wasm" "$TOOLS/bip32_wasm_size.wasm"

# --- Rust, wasm32 through wasm-bindgen + wasm-opt -O4 (the seed's build) ------
# The CLI must be the version of the wasm-bindgen crate in rust/bindgen. It is
# installed without --locked: its lock file pins a webpki-roots release the
# crate registry no longer serves.
WASM_BINDGEN_VERSION=0.2.130
WBG="$TOOLS/wasm-bindgen-cli/bin/wasm-bindgen"
if [[ -x "$WBG" && "$("$WBG" --version)" == "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  echo "== wasm-bindgen-cli $WASM_BINDGEN_VERSION: already installed =="
else
  echo "== wasm-bindgen-cli $WASM_BINDGEN_VERSION: cargo install (compiles, a few minutes) =="
  cargo install --quiet wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --root "$TOOLS/wasm-bindgen-cli" --force
fi
echo "== rust: bip32_bindgen.wasm, profile wasm-bindgen, wasm-bindgen --target nodejs, wasm-opt -O4 =="
(cd "$HERE/rust" && env RUSTC="$DEB_RUSTC" RUSTDOC="$DEB_RUSTDOC" RUSTC_BOOTSTRAP=1 \
  "$DEB_CARGO" build --quiet --locked --profile wasm-bindgen --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -p bip32-bindgen --target-dir "$HERE/rust/target/wasm-build")
rm -rf "$TOOLS/bindgen"
"$WBG" --target nodejs --out-dir "$TOOLS/bindgen" \
  "$HERE/rust/target/wasm-build/wasm32-unknown-unknown/wasm-bindgen/bip32_bindgen.wasm"
"$NODE_DIR/node_modules/.bin/wasm-opt" -O4 \
  "$TOOLS/bindgen/bip32_bindgen_bg.wasm" -o "$TOOLS/bindgen/bip32_bindgen_bg.wasm"

echo
echo "Installed:"
echo "  rust-native  $("$TOOLS/bip32-worker" --version)"
echo "  rust-wasm-o3 $(node "$NODE_DIR/worker.mjs" --version wasm "$TOOLS/bip32_wasm.wasm")"
echo "  rust-wasm-oz $(node "$NODE_DIR/worker.mjs" --version wasm "$TOOLS/bip32_wasm_size.wasm")"
echo "               built with $("$DEB_CARGO" --version) / $("$DEB_RUSTC" --version)"
echo "  rust-bindgen $(node "$NODE_DIR/worker.mjs" --version bindgen "$TOOLS/bindgen/bip32_bindgen.js")"
echo "               wasm-bindgen: $("$WBG" --version); wasm-opt: $("$NODE_DIR/node_modules/.bin/wasm-opt" --version)"
echo "  bip32-tiny   $(node "$NODE_DIR/worker.mjs" --version bip32-tiny)"
echo "  bip32-noble  $(node "$NODE_DIR/worker.mjs" --version bip32-noble)"
echo "  utxolib      $(node "$NODE_DIR/worker.mjs" --version utxolib)"
echo "  wasm-utxo    $(node "$NODE_DIR/worker.mjs" --version wasm-utxo)"
echo "  python       $("$HERE/.venv/bin/python" "$HERE/python/worker.py" --version)"
echo "  cargo on PATH: $(command -v cargo) ($(cargo --version))"
