// versus worker for examples/bip32: the JavaScript BIP32 implementations and
// the Rust `bip32` crate compiled to wasm32, in Node.js.
//
//   node worker.mjs IMPL [WASM_FILE|GLUE_FILE]  serve versus (started by versus)
//   node worker.mjs --version IMPL [WASM]    print what IMPL is, one line
//
// IMPL is one of
//   bip32-tiny    npm bip32 5 with tiny-secp256k1 2 (libsecp256k1 compiled to WASM)
//   bip32-noble   npm bip32 5 with @bitcoinerlab/secp256k1 2 (pure JS, @noble/curves)
//   utxolib       @bitgo/utxo-lib 11 (its own bip32 3 with @noble/secp256k1 1, pure JS)
//   wasm-utxo     @bitgo/wasm-utxo 4: BitGo's own published WASM (Rust, rust-bitcoin),
//                 whose BIP32 class has the seed's API (the seed's own column)
//   wasm          the Rust bip32 crate compiled to wasm32-unknown-unknown (WASM_FILE)
//   bindgen       the same through wasm-bindgen's glue, optimised by wasm-opt -O4
//                 as the seed report's build (GLUE_FILE: the glue's .js)
//
// Every operation is the seed report's operation followed by reading the
// resulting key's compressed public key, which it returns (33 bytes): the
// JavaScript libraries compute public keys lazily, the Rust crate eagerly, so
// reading it makes every implementation do the same work. Setup (not timed)
// reads the inputs file (the suite's payload, data/inputs.txt).

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { operation, run } from "versus-worker";

// The version of package `pkg` as Node resolves it from directory `from`.
function versionOf(pkg, from = import.meta.dirname) {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", pkg, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version;
    if (dirname(dir) === dir) return "?";
  }
}
const packageDir = (pkg, from = import.meta.dirname) => {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", pkg);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${pkg} not found from ${from}`);
  }
};

const args = process.argv.slice(2);
const printVersion = args[0] === "--version";
if (printVersion) args.shift();
const [impl, wasmFile] = args;

// ---------------------------------------------------------------------------
// The inputs file: `key value` records (see data/inputs.txt).

function parseInputs(text) {
  const inputs = { vectors: [] };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const space = line.indexOf(" ");
    const [key, value] = space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)];
    if (key === "vector") inputs.vectors.push({ seed: Buffer.from(value, "hex"), chains: [] });
    else if (key === "chain") inputs.vectors.at(-1).chains.push(value);
    else inputs[key] = value;
  }
  inputs.seed = Buffer.from(inputs.seed, "hex");
  inputs.text = text;
  return inputs;
}

const setup = ({ input }) => parseInputs(readFileSync(input, "utf8"));

// ---------------------------------------------------------------------------
// bitcoinjs-style BIP32 APIs (npm bip32, and utxo-lib's bip32).

function bitcoinjsOperations(bip32) {
  return {
    from_xprv: (i) => bip32.fromBase58(i.xprv).publicKey,
    from_xpub: (i) => bip32.fromBase58(i.xpub).publicKey,
    from_seed: (i) => bip32.fromSeed(i.seed).publicKey,
    derive_path_xprv: (i) => bip32.fromBase58(i.xprv).derivePath(i["path-xprv"]).publicKey,
    derive_path_xpub: (i) => bip32.fromBase58(i.xpub).derivePath(i["path-xpub"]).publicKey,
    neutered: (i) => bip32.fromBase58(i.xprv).neutered().publicKey,
    derive0: (i) => bip32.fromBase58(i.xpub).derive(0).publicKey,
    vectors: (i) => {
      let out = "";
      for (const { seed, chains } of i.vectors) {
        const master = bip32.fromSeed(seed);
        for (const chain of chains) {
          const key = chain === "m" ? master : master.derivePath(chain);
          out += `${chain} ${key.neutered().toBase58()} ${key.toBase58()}\n`;
        }
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------
// The wasm module (rust/wasm): arguments go into its input buffer, results
// come back from its output buffer (see rust/wasm/src/lib.rs).

function wasmOperations(file) {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), {});
  const inPtr = exports.input_ptr();
  const outPtr = exports.output_ptr();
  const size = exports.buffer_size();
  const encoder = new TextEncoder();
  let bytes = new Uint8Array(exports.memory.buffer);
  // A view of the module's memory, renewed when the memory has grown.
  const memory = () =>
    bytes.buffer === exports.memory.buffer ? bytes : (bytes = new Uint8Array(exports.memory.buffer));
  const put = (mem, at, value) => {
    const room = mem.subarray(inPtr + at, inPtr + size);
    if (typeof value === "string") return encoder.encodeInto(value, room).written;
    room.set(value);
    return value.length;
  };
  // Calls fn with its arguments' lengths; returns a copy of the result.
  const call = (fn, a, b) => {
    let mem = memory();
    const la = put(mem, 0, a);
    const lb = b === undefined ? 0 : put(mem, la, b);
    const n = fn(la, lb);
    mem = memory();
    if (n < 0) throw new Error(new TextDecoder().decode(mem.subarray(outPtr, outPtr - n)));
    return mem.slice(outPtr, outPtr + n);
  };
  const e = exports;
  return {
    from_xprv: (i) => call(e.from_xprv, i.xprv),
    from_xpub: (i) => call(e.from_xpub, i.xpub),
    from_seed: (i) => call(e.from_seed, i.seed),
    derive_path_xprv: (i) => call(e.derive_path_xprv, i.xprv, i["path-xprv"]),
    derive_path_xpub: (i) => call(e.derive_path_xpub, i.xpub, i["path-xpub"]),
    neutered: (i) => call(e.neutered, i.xprv),
    derive0: (i) => call(e.derive0, i.xpub),
    vectors: (i) => call(e.vectors, i.text),
  };
}

// The wasm-bindgen build (rust/bindgen): wasm-bindgen's CommonJS glue
// (--target nodejs) loads the module next to it; each call passes strings
// (or bytes) through the glue and gets a Uint8Array (or a string) back.

function bindgenOperations(glue) {
  const m = createRequire(import.meta.url)(resolve(glue));
  return {
    from_xprv: (i) => m.from_xprv(i.xprv),
    from_xpub: (i) => m.from_xpub(i.xpub),
    from_seed: (i) => m.from_seed(i.seed),
    derive_path_xprv: (i) => m.derive_path_xprv(i.xprv, i["path-xprv"]),
    derive_path_xpub: (i) => m.derive_path_xpub(i.xpub, i["path-xpub"]),
    neutered: (i) => m.neutered(i.xprv),
    derive0: (i) => m.derive0(i.xpub),
    vectors: (i) => m.vectors(i.text),
  };
}

// ---------------------------------------------------------------------------

async function load() {
  switch (impl) {
    case "bip32-tiny": {
      const { BIP32Factory } = await import("bip32");
      const ecc = await import("tiny-secp256k1");
      return {
        ops: bitcoinjsOperations(BIP32Factory(ecc)),
        version: `bip32 ${versionOf("bip32")} + tiny-secp256k1 ${versionOf("tiny-secp256k1")}, Node ${process.version}`,
      };
    }
    case "bip32-noble": {
      const { BIP32Factory } = await import("bip32");
      const ecc = await import("@bitcoinerlab/secp256k1");
      const secp = packageDir("@bitcoinerlab/secp256k1");
      return {
        ops: bitcoinjsOperations(BIP32Factory(ecc)),
        version:
          `bip32 ${versionOf("bip32")} + @bitcoinerlab/secp256k1 ${versionOf("@bitcoinerlab/secp256k1")}` +
          ` (@noble/curves ${versionOf("@noble/curves", secp)}), Node ${process.version}`,
      };
    }
    case "utxolib": {
      const utxolib = (await import("@bitgo/utxo-lib")).default;
      // utxo-lib's bip32 is @bitgo/secp256k1's: npm bip32 3 over @noble/secp256k1.
      const bitgoSecp = packageDir("@bitgo/secp256k1", packageDir("@bitgo/utxo-lib"));
      return {
        ops: bitcoinjsOperations(utxolib.bip32),
        version:
          `@bitgo/utxo-lib ${versionOf("@bitgo/utxo-lib")} (@bitgo/secp256k1 ${versionOf("@bitgo/secp256k1", bitgoSecp)}:` +
          ` bip32 ${versionOf("bip32", bitgoSecp)} + @noble/secp256k1 ${versionOf("@noble/secp256k1", bitgoSecp)}), Node ${process.version}`,
      };
    }
    case "wasm-utxo": {
      // The package's CommonJS build loads its module with fs; the ESM build
      // imports the .wasm as a module, which Node 20 does not do unflagged.
      const dir = packageDir("@bitgo/wasm-utxo");
      const { BIP32 } = createRequire(import.meta.url)("@bitgo/wasm-utxo");
      const module = join(dir, "dist/cjs/js/wasm/wasm_utxo_bg.wasm");
      return {
        ops: bitcoinjsOperations(BIP32),
        version:
          `@bitgo/wasm-utxo ${versionOf("@bitgo/wasm-utxo")} BIP32 (${basename(module)}, ${readFileSync(module).length} bytes),` +
          ` Node ${process.version}`,
      };
    }
    case "wasm": {
      if (!wasmFile) throw new Error("wasm: the .wasm file is the second argument");
      const size = readFileSync(wasmFile).length;
      return {
        ops: wasmOperations(wasmFile),
        version: `Rust bip32 0.6.0 + k256 0.14.0 as wasm32 (${basename(wasmFile)}, ${size} bytes), Node ${process.version}`,
      };
    }
    case "bindgen": {
      if (!wasmFile) throw new Error("bindgen: the glue's .js file is the second argument");
      const module = wasmFile.replace(/\.js$/, "_bg.wasm");
      return {
        ops: bindgenOperations(wasmFile),
        version:
          `Rust bip32 0.6.0 + k256 0.14.0 as wasm32 via wasm-bindgen + wasm-opt -O4 (binaryen ${versionOf("binaryen")})` +
          ` (${basename(module)}, ${readFileSync(module).length} bytes), Node ${process.version}`,
      };
    }
    default:
      throw new Error(
        `unknown implementation ${JSON.stringify(impl)}: bip32-tiny, bip32-noble, utxolib, wasm-utxo, wasm or bindgen`,
      );
  }
}

const { ops, version } = await load();
if (printVersion) {
  console.log(version);
} else {
  for (const [name, fn] of Object.entries(ops)) operation(name, fn, { setup });
  run();
}
