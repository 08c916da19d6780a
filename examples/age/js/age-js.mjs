#!/usr/bin/env node
// Minimal age CLI over the npm package `age-encryption`, so that it can be
// benchmarked as a process just like the Go `age` and Rust `rage` CLIs.
//
//   node age-js.mjs --version
//   node age-js.mjs -e [-a] (-r RECIPIENT | -R FILE) [...] [-o OUT] IN
//   node age-js.mjs -d -i IDENTITY_FILE [-i ...] [-o OUT] IN
//
// Without -o the output goes to stdout. Armored input is detected on -d.
//
// Memory: binary encryption/decryption use the package's streaming API
// (ReadableStream in, ReadableStream out, 64 KiB chunks), so memory stays flat
// whatever the file size. The package's ASCII armor API (armor.encode/decode)
// only works on whole buffers, so with -a (and when decrypting armored input)
// the whole file is held in memory, several times over.
import { readFileSync, openSync, readSync, closeSync, openAsBlob, createWriteStream, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

const ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----";
const USAGE = `usage: age-js.mjs --version
       age-js.mjs -e [-a] (-r RECIPIENT | -R FILE) [-o OUT] IN
       age-js.mjs -d -i IDENTITY_FILE [-o OUT] IN`;

function pkgVersion() {
  const url = new URL("./node_modules/age-encryption/package.json", import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")).version;
}

// True if the file starts (after optional whitespace) with the armor header.
function isArmored(path) {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.toString("latin1", 0, n).trimStart().startsWith(ARMOR_BEGIN);
  } finally {
    closeSync(fd);
  }
}

// Identity file as written by age-keygen: '#' comments, one key per line.
function readIdentities(path) {
  return readFileSync(path, "utf8").split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

let partialOutput; // removed if we fail after creating it

async function writeOut(out, data) {
  if (out !== undefined) partialOutput = out;
  const src = data instanceof ReadableStream ? Readable.fromWeb(data) : Readable.from([data]);
  await pipeline(src, out === undefined ? process.stdout : createWriteStream(out));
}

async function main() {
  const { values: o, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      version: { type: "boolean" },
      encrypt: { type: "boolean", short: "e" },
      decrypt: { type: "boolean", short: "d" },
      armor: { type: "boolean", short: "a" },
      recipient: { type: "string", short: "r", multiple: true },
      "recipients-file": { type: "string", short: "R", multiple: true },
      identity: { type: "string", short: "i", multiple: true },
      output: { type: "string", short: "o" },
    },
  });
  if (o.version) {
    console.log(`age-encryption ${pkgVersion()} on Node.js ${process.version}`);
    return;
  }
  if (o.encrypt === o.decrypt || positionals.length !== 1) throw new Error(USAGE);
  const input = positionals[0];
  const age = await import("age-encryption");

  if (o.encrypt) {
    // -R FILE: one recipient per line, '#' comments, as with age and rage.
    for (const f of o["recipients-file"] ?? []) (o.recipient ??= []).push(...readIdentities(f));
    if (!o.recipient?.length) throw new Error("-e needs at least one -r RECIPIENT or -R FILE");
    if (o.identity) throw new Error("-i is only valid with -d");
    const e = new age.Encrypter();
    for (const r of o.recipient) e.addRecipient(r);
    if (o.armor) {
      await writeOut(o.output, age.armor.encode(await e.encrypt(readFileSync(input))));
    } else {
      await writeOut(o.output, await e.encrypt((await openAsBlob(input)).stream()));
    }
  } else {
    if (!o.identity?.length) throw new Error("-d needs at least one -i IDENTITY_FILE");
    if (o.recipient || o["recipients-file"] || o.armor) throw new Error("-r, -R and -a are only valid with -e");
    const d = new age.Decrypter();
    for (const f of o.identity) {
      const ids = readIdentities(f);
      if (ids.length === 0) throw new Error(`no identities found in ${f}`);
      for (const id of ids) d.addIdentity(id);
    }
    if (isArmored(input)) {
      await writeOut(o.output, await d.decrypt(age.armor.decode(readFileSync(input, "latin1"))));
    } else {
      await writeOut(o.output, await d.decrypt((await openAsBlob(input)).stream()));
    }
  }
}

main().catch((err) => {
  process.stderr.write(`age-js: error: ${err?.message ?? err}\n`);
  if (partialOutput !== undefined) rmSync(partialOutput, { force: true });
  process.exitCode = 1;
});
