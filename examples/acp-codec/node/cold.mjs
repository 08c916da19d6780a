// Cold start (Node.js): read the first line of the corpus, decode it with the
// SDK's zod schema (validated), print its canonical summary. With --all, the
// whole-process throughput of the original comparison: every line decoded,
// the summary of them all. With --raw, what the original's TypeScript column
// timed: every line through JSON.parse only, without loading the SDK.
//
//   node cold.mjs CORPUS
//   node cold.mjs --all CORPUS
//   node cold.mjs --raw CORPUS
//   node cold.mjs --version    # the versions it runs with
import { openSync, readFileSync, readSync } from "node:fs";

if (process.argv[2] === "--version") {
  const v = (p) => JSON.parse(readFileSync(new URL(`node_modules/${p}/package.json`, import.meta.url))).version;
  console.log(`Node.js ${process.version}, @agentclientprotocol/sdk ${v("@agentclientprotocol/sdk")}, zod ${v("zod")}`);
  process.exit(0);
}
if (process.argv[2] === "--raw") {
  const { parseLines, readLines } = await import("./raw.mjs");
  process.stdout.write(parseLines(readLines(process.argv[3])));
  process.exit(0);
}
const { Summary, decode, decodeLines, readLines } = await import("./codec.mjs");
if (process.argv[2] === "--all") {
  process.stdout.write(decodeLines(readLines(process.argv[3])));
  process.exit(0);
}

// Read only up to the first newline.
const fd = openSync(process.argv[2], "r");
const chunks = [];
const buf = Buffer.alloc(65536);
for (;;) {
  const n = readSync(fd, buf, 0, buf.length, null);
  if (n === 0) break;
  const nl = buf.subarray(0, n).indexOf(10);
  if (nl >= 0) {
    chunks.push(Buffer.from(buf.subarray(0, nl)));
    break;
  }
  chunks.push(Buffer.from(buf.subarray(0, n)));
}
const n = decode(Buffer.concat(chunks).toString("utf8"));
const s = new Summary();
s.message(n.sessionId, n.update.sessionUpdate);
s.update(n.update);
process.stdout.write(s.render());
