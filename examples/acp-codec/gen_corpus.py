#!/usr/bin/env python3
"""Writes the shared corpus of the acp-codec example: N newline-delimited
JSON-RPC 2.0 `session/update` notifications of the Agent Client Protocol (v1),
shaped like the stream a coding agent sends its client during prompt turns.

    python3 gen_corpus.py --messages 1000 --out corpus.ndjson
    python3 gen_corpus.py --messages 100 1000 10000 --out-dir corpus   # corpus/100.ndjson ...
    python3 gen_corpus.py --messages 10000 --tokens 100 --out tokens.ndjson

With --tokens T every message is instead an agent_message_chunk of T tokens
(T words of the vocabulary, separated by spaces), as a model streams text:
the original comparison's token-throughput workload (100 tokens per message,
10,000 messages).

Deterministic: the bytes depend only on --messages and --seed, never on the
Python version or the machine (the pseudo-random numbers come from a
SplitMix64 of our own, not from `random`). The corpus of N messages is the
first N lines of the corpus of any larger N.

The update kinds used are the ones all three SDKs of the comparison know
(Rust crate agent-client-protocol 5.0.0 / schema 1.15.1, npm
@agentclientprotocol/sdk 2.4.0, PyPI agent-client-protocol 0.12.1):
user_message_chunk, agent_message_chunk, agent_thought_chunk, tool_call,
tool_call_update, plan, available_commands_update, current_mode_update,
session_info_update and usage_update. Every text is in the Basic Multilingual
Plane (a JavaScript string's length then equals its number of code points,
which the canonical summary counts); some texts hold non-ASCII characters and
characters JSON must escape (quotes, backslashes, newlines, tabs).

Only the standard library; runs on any Python 3.8+.
"""

import argparse
import json
import os
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def between(self, lo, hi):  # inclusive
        return lo + self.below(hi - lo + 1)

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, percent):
        return self.below(100) < percent

    def hexid(self, n):
        return "".join("0123456789abcdef"[self.below(16)] for _ in range(n))

    def base62(self, n):
        a = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        return "".join(a[self.below(62)] for _ in range(n))

    def uuid(self):
        h = self.hexid(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


WORDS = (
    "the a to of and in is it that for this with be on as we can function file "
    "test error value return type module config request response session update "
    "parse decode buffer stream line message schema field struct impl trait async "
    "await handler client agent tool call plan result option string number array "
    "object null true false index path read write edit search build run check fix "
    "refactor rename import export let const var fn pub use mod crate package "
    "naïve café résumé façade → — … “quoted” ‘single’ ✓ ✗ ≤ ≥ ± × µs °C € £ ¥ "
    "über straße Ωmega λ π ∑ 日本語 中文 한국어 Привет"
).split()

CODE_LINES = [
    'fn parse(line: &str) -> Result<Value, Error> {',
    '    let v: Value = serde_json::from_str(line)?;',
    '    if v["jsonrpc"] != "2.0" { return Err(Error::invalid()); }',
    '    Ok(v)',
    '}',
    'export function decode(line: string): Message {',
    '  const msg = JSON.parse(line) as unknown;',
    '  return schema.parse(msg);',
    'def handle(self, params: dict) -> None:',
    '    """Route a notification to its handler."""',
    '    self._queue.put_nowait(params)',
    '\tif err != nil {\n\t\treturn fmt.Errorf("decode: %w", err)\n\t}',
    'path = "C:\\\\Users\\\\dev\\\\project"  # a Windows path',
    'print(f"{name!r}: {value:>10}")',
    '// TODO: handle the “smart quotes” and the café → cafe case',
]

FILES = [
    "src/lib.rs", "src/codec.rs", "src/session/mod.rs", "src/transport.rs",
    "packages/sdk/src/acp.ts", "packages/sdk/src/stream.ts", "tests/codec.test.ts",
    "acp/schema.py", "acp/connection.py", "tests/test_router.py", "README.md",
    "docs/protocol/prompt-turn.md", "Cargo.toml", "package.json", "pyproject.toml",
]

COMMANDS = [
    ("web", "Search the web for information", "query to search for"),
    ("test", "Run the project's test suite", "test name filter"),
    ("plan", "Create a detailed implementation plan", None),
    ("review", "Review the current changes", None),
    ("compact", "Summarize the conversation to free context", "what to keep"),
    ("init", "Create an AGENTS.md for this repository", None),
    ("cost", "Show the token usage and cost of this session", None),
]

MODES = ["default", "plan", "acceptEdits", "bypassPermissions"]


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.between(lo, hi)))


def code(rng, lo, hi):
    return "\n".join(rng.choice(CODE_LINES) for _ in range(rng.between(lo, hi)))


def token_chunks(rng, text):
    """Splits a text into streaming chunks of 1-4 words, as a model streams it."""
    parts = text.split(" ")
    out, i = [], 0
    while i < len(parts):
        n = rng.between(1, 4)
        out.append(" ".join(parts[i:i + n]) + (" " if i + n < len(parts) else ""))
        i += n
    return out


class Corpus:
    def __init__(self, seed):
        self.rng = SplitMix64(seed)
        r = self.rng
        self.sessions = [f"sess_{r.base62(26)}" for _ in range(4)]
        self.announced = set()

    def note(self, sid, update):
        return {"jsonrpc": "2.0", "method": "session/update",
                "params": {"sessionId": sid, "update": update}}

    def chunk(self, kind, text, mid):
        return {"sessionUpdate": kind, "content": {"type": "text", "text": text}, "messageId": mid}

    def turn(self):
        """One prompt turn in one session: a list of notifications."""
        r = self.rng
        sid = r.choice(self.sessions)
        out = []
        if sid not in self.announced:
            self.announced.add(sid)
            cmds = []
            for name, desc, hint in COMMANDS[: r.between(3, len(COMMANDS))]:
                c = {"name": name, "description": desc}
                if hint:
                    c["input"] = {"hint": hint}
                cmds.append(c)
            out.append(self.note(sid, {"sessionUpdate": "available_commands_update",
                                       "availableCommands": cmds}))
            out.append(self.note(sid, {"sessionUpdate": "current_mode_update",
                                       "currentModeId": r.choice(MODES)}))
        # The user's prompt, maybe with a file attached.
        mid = r.uuid()
        out.append(self.note(sid, self.chunk("user_message_chunk", words(r, 8, 60), mid)))
        if r.chance(30):
            path = r.choice(FILES)
            out.append(self.note(sid, {
                "sessionUpdate": "user_message_chunk",
                "content": {"type": "resource_link", "name": path.rsplit("/", 1)[-1],
                            "uri": f"file:///home/dev/project/{path}",
                            "mimeType": "text/plain", "size": r.between(200, 90000)},
                "messageId": mid}))
        # Thinking.
        mid = r.uuid()
        for t in token_chunks(r, words(r, 10, 60)):
            out.append(self.note(sid, self.chunk("agent_thought_chunk", t, mid)))
        # A plan, sometimes.
        plan = None
        if r.chance(40):
            plan = [{"content": words(r, 3, 10), "priority": r.choice(["high", "medium", "low"]),
                     "status": "pending"} for _ in range(r.between(3, 7))]
            out.append(self.note(sid, {"sessionUpdate": "plan", "entries": plan}))
        # Tool calls, each followed by the agent's streamed commentary.
        for step in range(r.between(1, 4)):
            tid = f"toolu_{r.base62(24)}"
            path = r.choice(FILES)
            kind = r.choice(["read", "edit", "search", "execute", "fetch", "think"])
            call = {"sessionUpdate": "tool_call", "toolCallId": tid, "status": "pending", "kind": kind}
            if kind == "read":
                call["title"] = f"Read {path}"
                call["locations"] = [{"path": f"/home/dev/project/{path}", "line": r.between(1, 400)}]
                call["rawInput"] = {"file_path": f"/home/dev/project/{path}", "limit": 2000}
            elif kind == "edit":
                call["title"] = f"Edit {path}"
                call["locations"] = [{"path": f"/home/dev/project/{path}"}]
                call["rawInput"] = {"file_path": f"/home/dev/project/{path}",
                                    "old_string": code(r, 1, 3), "new_string": code(r, 1, 4)}
            elif kind == "search":
                call["title"] = f"grep \"{r.choice(WORDS)}\""
                call["rawInput"] = {"pattern": r.choice(WORDS), "path": "src", "-n": True}
            elif kind == "execute":
                call["title"] = r.choice(["cargo test", "npm test -- --run", "pytest -q", "git status"])
                call["rawInput"] = {"command": call["title"], "timeout": 120000}
            elif kind == "fetch":
                call["title"] = "Fetch protocol docs"
                call["rawInput"] = {"url": "https://example.com/protocol/v1/prompt-turn"}
            else:
                call["title"] = "Think"
            out.append(self.note(sid, call))
            out.append(self.note(sid, {"sessionUpdate": "tool_call_update", "toolCallId": tid,
                                       "status": "in_progress"}))
            done = {"sessionUpdate": "tool_call_update", "toolCallId": tid}
            if r.chance(8):
                done["status"] = "failed"
                done["content"] = [{"type": "content", "content": {"type": "text",
                                    "text": "Error: " + words(r, 5, 20)}}]
            else:
                done["status"] = "completed"
                if kind == "edit":
                    done["content"] = [{"type": "diff", "path": f"/home/dev/project/{path}",
                                        "oldText": code(r, 2, 12), "newText": code(r, 2, 14)}]
                elif kind in ("read", "execute", "fetch"):
                    done["content"] = [{"type": "content", "content": {
                        "type": "text", "text": code(r, 3, 40)}}]
                    done["rawOutput"] = {"exit_code": 0, "truncated": r.chance(10)}
                elif kind == "search":
                    done["content"] = [{"type": "content", "content": {
                        "type": "text", "text": "\n".join(
                            f"{r.choice(FILES)}:{r.between(1, 900)}: {words(r, 3, 12)}"
                            for _ in range(r.between(1, 15)))}}]
            out.append(self.note(sid, done))
            mid = r.uuid()
            for t in token_chunks(r, words(r, 5, 80)):
                out.append(self.note(sid, self.chunk("agent_message_chunk", t, mid)))
            if plan is not None and step < len(plan):
                plan = [dict(e) for e in plan]
                plan[step]["status"] = "completed"
                if step + 1 < len(plan):
                    plan[step + 1]["status"] = "in_progress"
                out.append(self.note(sid, {"sessionUpdate": "plan", "entries": plan}))
        if r.chance(15):
            out.append(self.note(sid, {"sessionUpdate": "session_info_update",
                                       "title": words(r, 2, 6),
                                       "updatedAt": f"2026-0{r.between(1, 9)}-1{r.between(0, 9)}T"
                                                    f"{r.between(10, 23)}:{r.between(10, 59)}:"
                                                    f"{r.between(10, 59)}Z"}))
        if r.chance(10):
            out.append(self.note(sid, {"sessionUpdate": "current_mode_update",
                                       "currentModeId": r.choice(MODES)}))
        usage = {"sessionUpdate": "usage_update", "used": r.between(1000, 190000), "size": 200000}
        if r.chance(50):
            usage["cost"] = {"amount": r.between(1, 99999) / 10000, "currency": "USD"}
        out.append(self.note(sid, usage))
        return out

    def tokens(self, count):
        """One agent_message_chunk of `count` tokens (words), in a random session."""
        r = self.rng
        text = " ".join(r.choice(WORDS) for _ in range(count))
        mid = r.uuid()
        return [self.note(r.choice(self.sessions), self.chunk("agent_message_chunk", text, mid))]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--messages", type=int, nargs="+", required=True,
                   help="number of notifications (lines); several with --out-dir")
    p.add_argument("--tokens", type=int, metavar="T",
                   help="every message an agent_message_chunk of T tokens (default: the mixed stream)")
    p.add_argument("--seed", type=int, default=3, help="seed of the pseudo-random stream (default 3)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", help="file to write (one --messages value)")
    where.add_argument("--out-dir", help="folder to write N.ndjson into, for each N of --messages")
    a = p.parse_args(argv)
    if a.out and len(a.messages) != 1:
        p.error("--out takes one --messages value; use --out-dir for several")
    corpus = Corpus(a.seed)
    lines = []
    while len(lines) < max(a.messages):
        for msg in (corpus.tokens(a.tokens) if a.tokens else corpus.turn()):
            line = json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
            assert all(ord(c) <= 0xFFFF for c in line), "texts must stay in the BMP"
            lines.append(line)
    if a.out_dir:
        os.makedirs(a.out_dir, exist_ok=True)
    for n in a.messages:
        path = a.out or os.path.join(a.out_dir, f"{n}.ndjson")
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            for line in lines[:n]:
                f.write(line)
                f.write("\n")
        os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
