"""The raw half of the Python codec: `json.loads` (standard library) into
dicts and lists, and the canonical summary every implementation builds. It
imports nothing but the standard library, so a process that only parses raw
(`cold.py --raw`, the seed's Python column) loads no SDK; codec.py adds the
validated decoding of the acp package and re-exports these.
"""

import json

KINDS = (
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
)
TOOL_STATUSES = ("pending", "in_progress", "completed", "failed", "none")


class Summary:
    __slots__ = (
        "messages", "kinds", "sessions", "text_chars", "resource_links", "tool_locations",
        "tool_status", "tool_content", "plan_entries", "plan_completed", "commands", "usage_used",
    )

    def __init__(self):
        self.messages = 0
        self.kinds = dict.fromkeys(KINDS, 0)
        self.sessions = {}
        self.text_chars = 0
        self.resource_links = 0
        self.tool_locations = 0
        self.tool_status = dict.fromkeys(TOOL_STATUSES, 0)
        self.tool_content = 0
        self.plan_entries = 0
        self.plan_completed = 0
        self.commands = 0
        self.usage_used = 0

    def message(self, sid, kind):
        if kind not in self.kinds:
            raise ValueError(f"unexpected sessionUpdate {kind!r}")
        self.messages += 1
        self.kinds[kind] += 1
        self.sessions[sid] = self.sessions.get(sid, 0) + 1

    def render(self):
        out = [f"messages {self.messages}"]
        out += [f"kind {k} {n}" for k, n in self.kinds.items()]
        # Session ids are ASCII, so code-point order is byte order, as in Rust and Node.
        out += [f"session {sid} {n}" for sid, n in sorted(self.sessions.items())]
        out.append(f"text_chars {self.text_chars}")
        out.append(f"resource_links {self.resource_links}")
        out.append(f"tool_locations {self.tool_locations}")
        out += [f"tool_status {k} {n}" for k, n in self.tool_status.items()]
        out.append(f"tool_content {self.tool_content}")
        out.append(f"plan_entries {self.plan_entries}")
        out.append(f"plan_completed {self.plan_completed}")
        out.append(f"commands {self.commands}")
        out.append(f"usage_used {self.usage_used}")
        return ("\n".join(out) + "\n").encode()


CHUNKS = ("user_message_chunk", "agent_message_chunk", "agent_thought_chunk")


def parse_lines(lines):
    """Raw parse: json.loads per line, the summary's fields from the dicts."""
    s = Summary()
    loads = json.loads
    for line in lines:
        p = loads(line)["params"]
        u = p["update"]
        kind = u["sessionUpdate"]
        s.message(p["sessionId"], kind)
        if kind in CHUNKS:
            c = u["content"]
            t = c.get("type")
            if t == "text":
                s.text_chars += len(c["text"])
            elif t == "resource_link":
                s.resource_links += 1
        elif kind == "tool_call":
            s.tool_locations += len(u.get("locations") or ())
        elif kind == "tool_call_update":
            st = u.get("status")
            s.tool_status[st if st in s.tool_status else "none"] += 1
            s.tool_content += len(u.get("content") or ())
        elif kind == "plan":
            entries = u["entries"]
            s.plan_entries += len(entries)
            s.plan_completed += sum(1 for e in entries if e["status"] == "completed")
        elif kind == "available_commands_update":
            s.commands += len(u["availableCommands"])
        elif kind == "usage_update":
            s.usage_used += u["used"]
    return s.render()


def read_lines(path):
    """The corpus as lines (transport work, done before timing)."""
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().split("\n") if line]
