// Node host for tdfcore.wasm (node:wasi): a versus worker (operations
// `encrypt`, `decrypt` and `decrypt-go-tdf` with the payload key from a KAS
// rewrap over HTTP (rewrap.mjs), `decrypt-local` and `decrypt-go-tdf-local`
// with the key unwrapped on the host), or, with
// `encrypt|decrypt IN OUT [IN OUT ...]`, a one-shot command used by
// check.sh. Same flags as the wazero host:
//
//   node host.mjs --module tdfcore.wasm --state KAS_STATE [flags] [encrypt|decrypt IN OUT ...]

import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    module: { type: "string", default: "tdfcore.wasm" },
    state: { type: "string" },
    public: { type: "string" },
    private: { type: "string" },
    "kas-url": { type: "string" },
    kid: { type: "string", default: "r1" },
    "segment-size": { type: "string", default: String(2 << 20) },
    "tdf-version": { type: "string", default: "4.2.2" },
    version: { type: "boolean" },
  },
});

if (opt.version) {
  let size = "missing";
  try {
    size = `${statSync(opt.module).size} bytes`;
  } catch {}
  console.log(`node ${process.version} (node:wasi preview1, V8 ${process.versions.v8}); module ${opt.module} (${size})`);
  process.exit(0);
}
if (!["4.2.2", "4.3.0"].includes(opt["tdf-version"])) {
  console.error("host.mjs: --tdf-version must be 4.2.2 or 4.3.0");
  process.exit(2);
}

// Imported only now, so that --version does not load node:wasi (whose
// ExperimentalWarning would otherwise reach stderr).
const { loadModule } = await import("./module.mjs");

// Key files are read on first use, so the worker may start before the KAS.
function config() {
  const fromState = (name) => (opt.state ? join(opt.state, name) : undefined);
  const read = (path) => (path ? readFileSync(path) : undefined);
  return {
    modulePath: opt.module,
    publicPEM: read(opt.public ?? fromState("kas-public.pem")),
    privatePEM: read(opt.private ?? fromState("kas-private.pem")),
    kasURL: opt["kas-url"] ?? (opt.state ? readFileSync(fromState("kas-url"), "utf8").trim() : ""),
    kid: opt.kid,
    segmentSize: Number(opt["segment-size"]),
    legacy: opt["tdf-version"] === "4.2.2",
  };
}

if (positionals.length > 0) {
  const [op, ...paths] = positionals;
  if (paths.length === 0 || paths.length % 2 !== 0 || !["encrypt", "decrypt"].includes(op)) {
    console.error("usage: host.mjs [flags] encrypt|decrypt IN OUT [IN OUT ...]");
    process.exit(2);
  }
  const m = await loadModule(config());
  for (let i = 0; i < paths.length; i += 2) writeFileSync(paths[i + 1], m[op](readFileSync(paths[i])));
} else {
  await serve();
}

// decrypt-local decrypts its input when that is a TDF; given plaintext (the
// payload), setup first encrypts it with the module, untimed, since a worker
// operation cannot chain on another's output.
async function serve() {
  const { operation, run } = await import("versus-worker");
  const { rewrapClient } = await import("./rewrap.mjs");
  let instance;
  const module = async () => (instance ??= await loadModule(config()));
  operation("encrypt", (s) => s.m.encrypt(s.input), {
    setup: async ({ input }) => ({ m: await module(), input: readFileSync(input) }),
  });
  operation("decrypt-local", (s) => s.m.decrypt(s.tdf), {
    setup: async ({ input }) => {
      const m = await module();
      const data = readFileSync(input);
      const isZip = data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;
      return { m, tdf: isZip ? data : m.encrypt(data) };
    },
  });
  // The Go SDK's TDF of the payload, written beside it by the suite's
  // payload generator (../go/payload.go): the module reading another
  // writer's TDF.
  operation("decrypt-go-tdf-local", (s) => s.m.decrypt(s.tdf), {
    setup: async ({ payload }) => ({ m: await module(), tdf: readFileSync(payload + ".go-sdk.tdf") }),
  });
  // Through the KAS, as the seed's TypeScript WASM host decrypted: each call
  // reads the manifest in the module, rewraps the key over HTTP (signing the
  // request and unwrapping the answer on the host) and decrypts in the module.
  let kas;
  const rewrap = async () => (kas ??= await rewrapClient(config().kasURL));
  const throughKas = (s) => s.m.decryptWithKey(s.tdf, s.payloadKey(s.m.manifest(s.tdf)));
  operation("decrypt", throughKas, {
    setup: async ({ input }) => {
      const m = await module();
      const data = readFileSync(input);
      const isZip = data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;
      return { m, payloadKey: await rewrap(), tdf: isZip ? data : m.encrypt(data) };
    },
  });
  operation("decrypt-go-tdf", throughKas, {
    setup: async ({ payload }) => ({
      m: await module(),
      payloadKey: await rewrap(),
      tdf: readFileSync(payload + ".go-sdk.tdf"),
    }),
  });
  run();
}
