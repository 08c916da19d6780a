// versus worker: the npm package age-encryption in-process, for the wrap and
// unwrap operations of examples/age/age-keys.toml. Only what the package
// offers synchronously can be timed by the versus Node worker library (its
// operations must not return a Promise): wrapping and unwrapping a file key
// with the post-quantum hybrid (ML-KEM-768-X25519) and scrypt recipients.
// Encryption, decryption, X25519 wrapping and key generation are async in
// the package (WebCrypto), so they are not measured in-process here.
//
// The recipient and identity classes are not in the package's export map;
// they are reached relative to its resolved entry point (dist/index.js
// imports them from ./recipients.js, so this is the same module instance).
//
//   node bench-worker.mjs --version
import { readFileSync } from "node:fs";

if (process.argv[2] === "--version") {
  const pkg = JSON.parse(readFileSync(new URL("./node_modules/age-encryption/package.json", import.meta.url), "utf8"));
  console.log(`age-encryption ${pkg.version}, Node.js ${process.version}`);
  process.exit(0);
}

const { operation, run } = await import("versus-worker");
const age = await import("age-encryption");
const rec = await import(new URL("./recipients.js", import.meta.resolve("age-encryption")).href);

// The constant file key 00 01 .. 0f, and the scrypt work factor 2^10, as in the Go and Rust workers.
const FILE_KEY = Uint8Array.from({ length: 16 }, (_, i) => i);
const SCRYPT_LOG_N = 10;
const PASSPHRASE = "correct horse battery staple";

async function pair({ params }) {
  let r, id;
  if (params.kind === "hybrid") {
    const identity = await age.generateHybridIdentity();
    r = new rec.HybridRecipient(await age.identityToRecipient(identity));
    id = new rec.HybridIdentity(identity);
  } else if (params.kind === "scrypt") {
    r = new rec.ScryptRecipient(PASSPHRASE, SCRYPT_LOG_N);
    id = new rec.ScryptIdentity(PASSPHRASE);
  } else {
    throw new Error(`kind ${params.kind}: not synchronous in age-encryption (X25519 uses WebCrypto)`);
  }
  const stanzas = r.wrapFileKey(FILE_KEY);
  const got = id.unwrapFileKey(stanzas);
  if (!got || Buffer.compare(Buffer.from(got), Buffer.from(FILE_KEY)) !== 0) throw new Error("unwrap did not return the file key");
  return { r, id, stanzas };
}

// The stanza's body (random: not compared).
operation("wrap", (p) => p.r.wrapFileKey(FILE_KEY)[0].body, { setup: pair });
operation("unwrap", (p) => p.id.unwrapFileKey(p.stanzas), { setup: pair });

run();
