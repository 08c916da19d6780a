"""The two ways of reading one line of the corpus (Python), each feeding the
same canonical summary as the Rust and Node implementations:

- raw parse: `json.loads` (standard library) into dicts and lists;
- validated decoding: the pydantic models of the PyPI package
  agent-client-protocol (`acp.schema.SessionNotification`, whose `update` is a
  union discriminated on `sessionUpdate`), reached the way the package's own
  connection does it: `json.loads` of the line, the JSON-RPC envelope checked,
  then `SessionNotification.model_validate(params)` (acp/router.py).
"""

import json

from acp.utils import serialize_params
from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    AvailableCommandsUpdate,
    CurrentModeUpdate,
    ResourceContentBlock,
    SessionInfoUpdate,
    SessionNotification,
    TextContentBlock,
    ToolCallProgress,
    ToolCallStart,
    UsageUpdate,
    UserMessageChunk,
)

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


def decode(line):
    """Validated decoding of one line, as acp's connection does it."""
    msg = json.loads(line)
    if msg.get("jsonrpc") != "2.0":
        raise ValueError("not a JSON-RPC 2.0 message")
    if msg.get("method") != "session/update":
        raise ValueError(f"unexpected method {msg.get('method')!r}")
    return SessionNotification.model_validate(msg["params"])


def decode_lines(lines):
    """Validated decoding per line, the summary's fields from the typed models."""
    s = Summary()
    validate = SessionNotification.model_validate
    loads = json.loads
    for line in lines:
        msg = loads(line)
        if msg.get("jsonrpc") != "2.0":
            raise ValueError("not a JSON-RPC 2.0 message")
        if msg.get("method") != "session/update":
            raise ValueError(f"unexpected method {msg.get('method')!r}")
        n = validate(msg["params"])
        summarize(n, s)
    return s.render()


def summarize(n, s):
    u = n.update
    s.message(n.session_id, u.session_update)
    if isinstance(u, (AgentMessageChunk, AgentThoughtChunk, UserMessageChunk)):
        c = u.content
        if isinstance(c, TextContentBlock):
            s.text_chars += len(c.text)
        elif isinstance(c, ResourceContentBlock):
            s.resource_links += 1
    elif isinstance(u, ToolCallStart):
        s.tool_locations += len(u.locations or ())
    elif isinstance(u, ToolCallProgress):
        s.tool_status[u.status or "none"] += 1
        s.tool_content += len(u.content or ())
    elif isinstance(u, AgentPlanUpdate):
        s.plan_entries += len(u.entries)
        s.plan_completed += sum(1 for e in u.entries if e.status == "completed")
    elif isinstance(u, AvailableCommandsUpdate):
        s.commands += len(u.available_commands)
    elif isinstance(u, UsageUpdate):
        s.usage_used += u.used
    elif not isinstance(u, (CurrentModeUpdate, SessionInfoUpdate)):
        raise ValueError(f"unexpected update {type(u).__name__}")


def encode(n):
    """Encoding of one decoded notification back to a JSON-RPC line, as the
    package's connection sends one: its serialize_params (model_dump by alias,
    without None and default values), in the envelope, json.dumps."""
    return json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": serialize_params(n)},
                      separators=(",", ":"))


def encode_decode_all(values):
    """encode+decode per message: the model encoded to a line and decoded again (validated)."""
    s = Summary()
    for v in values:
        summarize(decode(encode(v)), s)
    return s.render()


def check_line(line):
    """Strict check, not timed: the model, dumped again (by alias, only the
    fields that were set), must equal the line's params. pydantic ignores
    unknown fields and acp's models replace some invalid optional fields with
    None instead of failing, so a line can validate while losing a field;
    this catches that."""
    params = json.loads(line)["params"]
    again = decode(line).model_dump(mode="json", by_alias=True, exclude_unset=True)
    if again != params:
        raise ValueError(f"decoding changed the message:\n  line: {params}\n  got:  {again}")


def read_lines(path):
    """The corpus as lines (transport work, done before timing)."""
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().split("\n") if line]
