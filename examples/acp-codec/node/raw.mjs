// The raw half of the Node.js codec: JSON.parse into plain objects, and the
// canonical summary every implementation builds. It imports no SDK, so a
// process that only parses raw (`cold.mjs --raw`, the seed's TypeScript
// column) loads none; codec.mjs adds the validated decoding of
// @agentclientprotocol/sdk and re-exports these.
import { readFileSync } from "node:fs";

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

/** The corpus as lines (transport work, done before timing). */
export function readLines(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
}
