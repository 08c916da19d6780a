#!/usr/bin/env bash
# Tests of the Node.js worker library: installs the dev tools from the npm
# registry when missing, checks formatting and types, runs the unit tests,
# packs the package as it would be published (npm pack; nothing is uploaded),
# installs that tarball into a new project and checks its exports and types
# there, then runs the versus conformance scenarios against
# conformance-worker.mjs importing the installed package.
# Needs node >= 20 and npm; VERSUS may name the versus binary to use.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
cd "$HERE"

step() { printf '\n== %s ==\n' "$*"; }

step "install (npm ci, when needed)"
# npm ci installs exactly package-lock.json; skip it when that is in place.
if ! [ -x node_modules/.bin/prettier ] || ! [ -x node_modules/.bin/tsc ] ||
  ! [ node_modules/.package-lock.json -nt package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "node_modules is up to date"
fi

step "format (prettier --check)"
node_modules/.bin/prettier --check .

step "types (tsc)"
node_modules/.bin/tsc -p tsconfig.json

step "unit tests (node --test)"
node --test test/

step "package (npm pack, then install the tarball into a new project)"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/versus-worker-node.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
npm pack --pack-destination "$TMP" --json >"$TMP/pack.json"
# The tarball holds the library, its types, README and package.json: nothing else.
node - "$TMP/pack.json" <<'JS'
const [pack] = JSON.parse(require("node:fs").readFileSync(process.argv[2], "utf8"));
const files = pack.files.map((f) => f.path).sort();
const want = ["README.md", "index.d.ts", "package.json", "src/index.js", "src/measure.js",
  "src/protocol.js", "src/transport.js", "src/worker.js", "LICENSE-APACHE", "LICENSE-MIT"].sort();
if (JSON.stringify(files) !== JSON.stringify(want)) {
  console.error(`tarball holds ${files.join(", ")}\nexpected ${want.join(", ")}`);
  process.exit(1);
}
console.log(`${pack.filename}: ${files.length} files, ${pack.size} bytes`);
JS
mkdir "$TMP/app"
cp conformance-worker.mjs "$TMP/app/"
cat >"$TMP/app/package.json" <<'JSON'
{ "name": "pack-check", "private": true, "type": "module" }
JSON
cat >"$TMP/app/check.ts" <<'TS'
import { operation, run, Worker, VERSION } from "versus-worker";
const worker: Worker = new Worker();
worker.operation("noop", () => new Uint8Array(0));
operation("hello", () => "hello");
export const ok: [string, () => void] = [VERSION, run];
TS
cat >"$TMP/app/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "es2022", "lib": ["es2022"], "module": "nodenext", "moduleResolution": "nodenext",
    "strict": true, "noEmit": true, "types": []
  },
  "files": ["check.ts"]
}
JSON
# No dependencies, so this installs from the tarball alone.
(cd "$TMP/app" && npm install --no-audit --no-fund --silent "$TMP"/versus-worker-*.tgz)
(cd "$TMP/app" && node --input-type=module -e '
import { readFileSync } from "node:fs";
import * as w from "versus-worker";
const pkg = JSON.parse(readFileSync("node_modules/versus-worker/package.json", "utf8"));
for (const name of ["operation", "run", "Worker", "defaultWorker"]) {
  if (!(name in w)) throw new Error(`versus-worker does not export ${name}`);
}
if (w.VERSION !== pkg.version) throw new Error(`VERSION ${w.VERSION} != package.json ${pkg.version}`);
console.log(`installed ${pkg.name} ${pkg.version}; exports ${Object.keys(w).sort().join(", ")}`);
')
# The types resolve from the installed package the way a TypeScript user's would.
"$HERE/node_modules/.bin/tsc" -p "$TMP/app/tsconfig.json"
echo "types: ok"

step "conformance (against the installed tarball)"
VERSUS_BIN="${VERSUS:-$REPO/target/debug/versus}"
if [ -z "${VERSUS:-}" ] && ! [ -x "$VERSUS_BIN" ]; then
  echo "building versus ($VERSUS_BIN is missing)"
  (cd "$REPO" && cargo build --quiet)
fi
"$VERSUS_BIN" conformance -- node "$TMP/app/conformance-worker.mjs"
