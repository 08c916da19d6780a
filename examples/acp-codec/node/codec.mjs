// The two ways of reading one line of the corpus (Node.js), each feeding the
// same canonical summary as the Rust and Python implementations:
//
// - raw parse: JSON.parse into plain objects, in raw.mjs (which loads no
//   SDK, for the raw whole process) and re-exported here;
// - validated decoding: JSON.parse, the JSON-RPC envelope checked, then the
//   zod schema `zSessionNotification` of the npm package
//   @agentclientprotocol/sdk, `.parse(params)`: what the SDK's own
//   connection does with every `session/update` it receives
//   (dist/core/stream.js parses the line, dist/v1/stable/acp.js validates).
//
// The zod schemas are not in the package's export map: `import
// "@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js"` fails with
// ERR_PACKAGE_PATH_NOT_EXPORTED. They are reached the way the SDK's own entry
// point reaches them: resolve the package's main entry ("."), which is
// dist/v1/stable/acp.js, and import "../schema/zod.gen.js" relative to it
// (that file starts with `import * as validate from "../schema/zod.gen.js"`),
// so this is the very module instance the SDK validates with.
import { isDeepStrictEqual } from "node:util";
import { Summary } from "./raw.mjs";

// The raw half (raw.mjs loads no SDK, for the raw whole process).
export { Summary, parseLines, readLines } from "./raw.mjs";

const sdkEntry = import.meta.resolve("@agentclientprotocol/sdk");
const zodGen = await import(new URL("../schema/zod.gen.js", sdkEntry).href);
export const { zSessionNotification } = zodGen;
if (!zSessionNotification) throw new Error(`no zSessionNotification in ${sdkEntry}`);

/** Validated decoding of one line, as the SDK's connection does it. */
export function decode(line) {
  const msg = JSON.parse(line);
  if (msg === null || typeof msg !== "object" || msg.jsonrpc !== "2.0") throw new Error("not a JSON-RPC 2.0 message");
  if (msg.method !== "session/update") throw new Error(`unexpected method ${JSON.stringify(msg.method)}`);
  return zSessionNotification.parse(msg.params);
}

/** Validated decoding per line, the summary's fields from zod's output. */
export function decodeLines(lines) {
  const s = new Summary();
  for (const line of lines) {
    const n = decode(line);
    s.message(n.sessionId, n.update.sessionUpdate);
    s.update(n.update);
  }
  return s.render();
}

/**
 * Encoding of one decoded notification back to a JSON-RPC line, as the SDK's
 * connection writes a message (JSON.stringify of the message object).
 */
export function encode(n) {
  return JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: n });
}

/** encode+decode per message: zod's output encoded to a line and decoded again (validated). */
export function encodeDecodeAll(values) {
  const s = new Summary();
  for (const v of values) {
    const n = decode(encode(v));
    s.message(n.sessionId, n.update.sessionUpdate);
    s.update(n.update);
  }
  return s.render();
}

/**
 * Strict check, not timed: zod's output must equal the line's params. zod
 * drops unknown keys, and the SDK's schemas replace some invalid optional
 * fields with undefined instead of failing, so a line can validate while
 * losing a field; this catches that.
 */
export function checkLine(line) {
  const params = JSON.parse(line).params;
  const again = decode(line);
  if (!isDeepStrictEqual(again, params)) {
    throw new Error(`decoding changed the message:\n  line: ${JSON.stringify(params)}\n  got:  ${JSON.stringify(again)}`);
  }
}
