"""The two ways of reading one line of the corpus (Python), each feeding the
same canonical summary as the Rust and Node implementations:

- raw parse: `json.loads` (standard library) into dicts and lists, in raw.py
  (which loads no SDK, for the raw whole process) and re-exported here;
- validated decoding: the pydantic models of the PyPI package
  agent-client-protocol (`acp.schema.SessionNotification`, whose `update` is a
  union discriminated on `sessionUpdate`), reached the way the package's own
  connection does it: `json.loads` of the line, the JSON-RPC envelope checked,
  then `SessionNotification.model_validate(params)` (acp/router.py).
"""

import json

from raw import Summary, parse_lines, read_lines  # noqa: F401 (re-exported: the raw half)
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
