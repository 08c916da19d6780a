// The two ways of reading one line of the corpus (Node.js), each feeding the
// same canonical summary as the Rust and Python implementations:
//
// - raw parse: JSON.parse into plain objects;
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
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const sdkEntry = import.meta.resolve("@agentclientprotocol/sdk");
const zodGen = await import(new URL("../schema/zod.gen.js", sdkEntry).href);
export const { zSessionNotification } = zodGen;
if (!zSessionNotification) throw new Error(`no zSessionNotification in ${sdkEntry}`);

const KINDS = [
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
  "available_commands_update",
  "current_mode_update",
  "session_info_update",
  "usage_update",
];
const TOOL_STATUSES = ["pending", "in_progress", "completed", "failed", "none"];

export class Summary {
  constructor() {
    this.messages = 0;
    this.kinds = new Map(KINDS.map((k) => [k, 0]));
    this.sessions = new Map();
    this.textChars = 0;
    this.resourceLinks = 0;
    this.toolLocations = 0;
    this.toolStatus = new Map(TOOL_STATUSES.map((k) => [k, 0]));
    this.toolContent = 0;
    this.planEntries = 0;
    this.planCompleted = 0;
    this.commands = 0;
    this.usageUsed = 0;
  }

  message(sid, kind) {
    const n = this.kinds.get(kind);
    if (n === undefined) throw new Error(`unexpected sessionUpdate ${JSON.stringify(kind)}`);
    this.messages++;
    this.kinds.set(kind, n + 1);
    this.sessions.set(sid, (this.sessions.get(sid) ?? 0) + 1);
  }

  // Fields of one update, from plain objects: the raw parse and zod's output
  // (zod returns plain objects too) have the same shape.
  update(u) {
    switch (u.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const c = u.content;
        // Texts are in the Basic Multilingual Plane, so .length (UTF-16 units)
        // is the number of code points, as Rust and Python count them.
        if (c.type === "text") this.textChars += c.text.length;
        else if (c.type === "resource_link") this.resourceLinks++;
        break;
      }
      case "tool_call":
        this.toolLocations += u.locations?.length ?? 0;
        break;
      case "tool_call_update": {
        const st = this.toolStatus.has(u.status) ? u.status : "none";
        this.toolStatus.set(st, this.toolStatus.get(st) + 1);
        this.toolContent += u.content?.length ?? 0;
        break;
      }
      case "plan":
        this.planEntries += u.entries.length;
        for (const e of u.entries) if (e.status === "completed") this.planCompleted++;
        break;
      case "available_commands_update":
        this.commands += u.availableCommands.length;
        break;
      case "usage_update":
        this.usageUsed += u.used;
        break;
    }
  }

  render() {
    const out = [`messages ${this.messages}`];
    for (const [k, n] of this.kinds) out.push(`kind ${k} ${n}`);
    // Session ids are ASCII: UTF-16 order is byte order, as in Rust and Python.
    for (const sid of [...this.sessions.keys()].sort()) out.push(`session ${sid} ${this.sessions.get(sid)}`);
    out.push(`text_chars ${this.textChars}`);
    out.push(`resource_links ${this.resourceLinks}`);
    out.push(`tool_locations ${this.toolLocations}`);
    for (const [k, n] of this.toolStatus) out.push(`tool_status ${k} ${n}`);
    out.push(`tool_content ${this.toolContent}`);
    out.push(`plan_entries ${this.planEntries}`);
    out.push(`plan_completed ${this.planCompleted}`);
    out.push(`commands ${this.commands}`);
    out.push(`usage_used ${this.usageUsed}`);
    return out.join("\n") + "\n";
  }
}

/** Raw parse: JSON.parse per line, the summary's fields from the objects. */
export function parseLines(lines) {
  const s = new Summary();
  for (const line of lines) {
    const p = JSON.parse(line).params;
    s.message(p.sessionId, p.update.sessionUpdate);
    s.update(p.update);
  }
  return s.render();
}

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

/** The corpus as lines (transport work, done before timing). */
export function readLines(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
}
