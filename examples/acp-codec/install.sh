#!/usr/bin/env bash
# Installs the three implementations of examples/acp-codec, all inside this
# folder (never system-wide), at pinned versions:
#   .venv/                Python: agent-client-protocol 0.12.1 and its pinned
#                         dependencies (python/requirements.txt), plus the
#                         versus worker library (workers/python)
#   node/node_modules/    Node: @agentclientprotocol/sdk 2.4.0 and zod 4.6.7
#                         (node/package.json + package-lock.json, npm ci), plus
#                         the versus worker library (workers/node, linked)
#   rust/target/, .tools/ Rust: agent-client-protocol =5.0.0 and serde_json
#                         (rust/Cargo.toml + Cargo.lock, --locked), built
#                         --release: the worker, the cold-start program,
#                         the empty program of bare_start and acp-check,
#                         copied to .tools/
# Then checks the corpus generator against all three (one small corpus must
# decode strictly and summarize identically everywhere), and prints versions.
# Idempotent: re-running only redoes what changed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
tools="$here/.tools"
mkdir -p "$tools"

need() { command -v "$1" >/dev/null || { echo "install.sh: '$1' not found in PATH" >&2; exit 1; }; }
need python3; need node; need npm; need cargo

echo "== python: .venv with agent-client-protocol and versus-worker =="
if [ ! -x "$here/.venv/bin/python" ]; then
  python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/python/requirements.txt"
"$here/.venv/bin/pip" install --quiet --disable-pip-version-check "$repo/workers/python"

echo "== node: npm ci in node/ =="
# npm ci wipes and reinstalls node_modules; skip it when the lock file is
# unchanged since the last install (npm keeps a copy in node_modules).
if [[ -f "$here/node/node_modules/.package-lock.json" \
      && ! "$here/node/package-lock.json" -nt "$here/node/node_modules/.package-lock.json" ]]; then
  echo "node_modules up to date"
else
  (cd "$here/node" && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "== rust: worker, cold-start program, acp-check (release) =="
(cd "$here/rust" && cargo build --quiet --locked --release)
cp "$here/rust/target/release/acp-codec-rust" "$tools/acp-worker-rust"
cp "$here/rust/target/release/acp-cold" "$tools/acp-cold-rust"
cp "$here/rust/target/release/acp-check" "$tools/acp-check"
cp "$here/rust/target/release/acp-bare" "$tools/acp-bare-rust"

echo "== check: a 2000-message corpus decodes strictly and summarizes the same in all three =="
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen_corpus.py" --messages 2000 --out "$tmp/corpus.ndjson"
"$tools/acp-check" "$tmp/corpus.ndjson" > "$tmp/rust.txt"
"$here/.venv/bin/python" - "$here/python" "$tmp/corpus.ndjson" > "$tmp/python.txt" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import codec
lines = codec.read_lines(sys.argv[2])
for line in lines:
    codec.check_line(line)
p, d = codec.parse_lines(lines), codec.decode_lines(lines)
assert p == d, "parse and decode summaries differ"
sys.stdout.buffer.write(d)
PY
node --input-type=module - "$here/node/codec.mjs" "$tmp/corpus.ndjson" > "$tmp/node.txt" <<'JS'
const c = await import(process.argv[2]);
const lines = c.readLines(process.argv[3]);
lines.forEach(c.checkLine);
const p = c.parseLines(lines), d = c.decodeLines(lines);
if (p !== d) throw new Error("parse and decode summaries differ");
process.stdout.write(d);
JS
cmp "$tmp/rust.txt" "$tmp/python.txt"
cmp "$tmp/rust.txt" "$tmp/node.txt"
echo "ok: $(head -1 "$tmp/rust.txt"), identical summaries"

echo
echo "Installed:"
echo "  rust:   $("$tools/acp-cold-rust" --version)"
echo "  node:   $(node "$here/node/cold.mjs" --version)"
echo "  python: $("$here/.venv/bin/python" "$here/python/cold.py" --version)"
