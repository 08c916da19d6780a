//! The two ways of reading one line of the corpus, each feeding the same
//! canonical summary:
//!
//! - `parse_line`: raw parse, `serde_json::from_str` into a `serde_json::Value`,
//!   fields read from the untyped tree (no validation beyond JSON syntax).
//! - `decode_line`: validated decoding into the crate's own typed schema,
//!   `JsonRpcMessage<Notification<SessionNotification>>` from
//!   `agent_client_protocol::v1::schema` (the crate re-exports
//!   agent-client-protocol-schema's v1 types there): the envelope's
//!   `"jsonrpc": "2.0"` is checked by the type, the method by us, and the
//!   params are deserialized into `SessionNotification`, whose `update` is the
//!   `sessionUpdate`-tagged `SessionUpdate` enum.

use agent_client_protocol::v1::schema::{
    ContentBlock, JsonRpcMessage, Notification, PlanEntryStatus, SessionNotification, SessionUpdate, ToolCallStatus,
};
use serde_json::Value;

use crate::summary::{KINDS, Summary};

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// One line as the crate types it.
pub type Line = JsonRpcMessage<Notification<SessionNotification>>;

fn kind_index(kind: &str) -> Result<usize, Error> {
    KINDS
        .iter()
        .position(|k| *k == kind)
        .ok_or_else(|| format!("unexpected sessionUpdate {kind:?}").into())
}

fn len(v: &Value) -> u64 {
    v.as_array().map_or(0, |a| a.len() as u64)
}

/// Raw parse: JSON text to `serde_json::Value`, then the summary's fields from the tree.
pub fn parse_line(line: &str, s: &mut Summary) -> Result<(), Error> {
    let v: Value = serde_json::from_str(line)?;
    let p = &v["params"];
    let u = &p["update"];
    let sid = p["sessionId"].as_str().ok_or("params.sessionId is not a string")?;
    let k = kind_index(
        u["sessionUpdate"]
            .as_str()
            .ok_or("update.sessionUpdate is not a string")?,
    )?;
    s.message(sid, k);
    match KINDS[k] {
        "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk" => {
            let c = &u["content"];
            match c["type"].as_str() {
                Some("text") => s.text_chars += c["text"].as_str().map_or(0, |t| t.chars().count() as u64),
                Some("resource_link") => s.resource_links += 1,
                _ => {}
            }
        }
        "tool_call" => s.tool_locations += len(&u["locations"]),
        "tool_call_update" => {
            let i = match u["status"].as_str() {
                Some("pending") => 0,
                Some("in_progress") => 1,
                Some("completed") => 2,
                Some("failed") => 3,
                _ => 4,
            };
            s.tool_status[i] += 1;
            s.tool_content += len(&u["content"]);
        }
        "plan" => {
            if let Some(entries) = u["entries"].as_array() {
                s.plan_entries += entries.len() as u64;
                s.plan_completed += entries.iter().filter(|e| e["status"] == "completed").count() as u64;
            }
        }
        "available_commands_update" => s.commands += len(&u["availableCommands"]),
        "usage_update" => s.usage_used += u["used"].as_u64().unwrap_or(0),
        _ => {}
    }
    Ok(())
}

/// Validated decoding of one line into the crate's types.
pub fn decode(line: &str) -> Result<SessionNotification, Error> {
    let msg: Line = serde_json::from_str(line)?;
    let n = msg.into_inner();
    if &*n.method != "session/update" {
        return Err(format!("unexpected method {:?}", n.method).into());
    }
    n.params.ok_or_else(|| "session/update without params".into())
}

/// Validated decoding of one line into the whole typed message (envelope
/// included), kept by the encode+decode operation's setup.
pub fn decode_message(line: &str) -> Result<Line, Error> {
    Ok(serde_json::from_str(line)?)
}

/// Encoding of one typed message back to a JSON-RPC line (serde).
pub fn encode(msg: &Line) -> Result<String, Error> {
    Ok(serde_json::to_string(msg)?)
}

/// One encode+decode: the typed message encoded to a line, the line decoded
/// again (validated), the summary's fields from the second decoding.
pub fn encode_decode(msg: &Line, s: &mut Summary) -> Result<(), Error> {
    decode_line(&encode(msg)?, s)
}

/// Validated decoding, then the summary's fields from the typed value.
pub fn decode_line(line: &str, s: &mut Summary) -> Result<(), Error> {
    summarize(&decode(line)?, s)
}

pub fn summarize(n: &SessionNotification, s: &mut Summary) -> Result<(), Error> {
    let (k, sid) = (kind_of(&n.update)?, &*n.session_id.0);
    s.message(sid, k);
    match &n.update {
        SessionUpdate::UserMessageChunk(c)
        | SessionUpdate::AgentMessageChunk(c)
        | SessionUpdate::AgentThoughtChunk(c) => match &c.content {
            ContentBlock::Text(t) => s.text_chars += t.text.chars().count() as u64,
            ContentBlock::ResourceLink(_) => s.resource_links += 1,
            _ => {}
        },
        SessionUpdate::ToolCall(t) => s.tool_locations += t.locations.len() as u64,
        SessionUpdate::ToolCallUpdate(t) => {
            let i = match t.fields.status {
                Some(ToolCallStatus::Pending) => 0,
                Some(ToolCallStatus::InProgress) => 1,
                Some(ToolCallStatus::Completed) => 2,
                Some(ToolCallStatus::Failed) => 3,
                None => 4,
                Some(_) => return Err("unexpected tool call status".into()),
            };
            s.tool_status[i] += 1;
            s.tool_content += t.fields.content.as_ref().map_or(0, |c| c.len() as u64);
        }
        SessionUpdate::Plan(p) => {
            s.plan_entries += p.entries.len() as u64;
            s.plan_completed += p
                .entries
                .iter()
                .filter(|e| e.status == PlanEntryStatus::Completed)
                .count() as u64;
        }
        SessionUpdate::AvailableCommandsUpdate(a) => s.commands += a.available_commands.len() as u64,
        SessionUpdate::UsageUpdate(u) => s.usage_used += u.used,
        _ => {}
    }
    Ok(())
}

fn kind_of(u: &SessionUpdate) -> Result<usize, Error> {
    Ok(match u {
        SessionUpdate::UserMessageChunk(_) => 0,
        SessionUpdate::AgentMessageChunk(_) => 1,
        SessionUpdate::AgentThoughtChunk(_) => 2,
        SessionUpdate::ToolCall(_) => 3,
        SessionUpdate::ToolCallUpdate(_) => 4,
        SessionUpdate::Plan(_) => 5,
        SessionUpdate::AvailableCommandsUpdate(_) => 6,
        SessionUpdate::CurrentModeUpdate(_) => 7,
        SessionUpdate::SessionInfoUpdate(_) => 8,
        SessionUpdate::UsageUpdate(_) => 9,
        _ => return Err("unexpected kind of session update".into()),
    })
}

/// Strict check, not timed: the typed value, serialized again, must say
/// everything the line said. serde ignores unknown fields, and the schema
/// turns some invalid optional fields into their default
/// (`DefaultOnError`), so a line can decode "successfully" while losing a
/// field; this catches that. The only differences allowed are fields the
/// crate leaves out on output because they hold the default value
/// (`"status": "pending"`, `"kind": "other"`, an empty array).
pub fn check_line(line: &str) -> Result<(), Error> {
    let original: Value = serde_json::from_str(line)?;
    let typed = decode(line)?;
    let again = serde_json::to_value(&typed)?;
    covers(&again, &original["params"], "params")
}

fn covers(again: &Value, original: &Value, path: &str) -> Result<(), Error> {
    match (again, original) {
        (Value::Object(a), Value::Object(o)) => {
            for (k, ov) in o {
                let p = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => covers(av, ov, &p)?,
                    None => {
                        let default = matches!(
                            (k.as_str(), ov.as_str()),
                            ("status", Some("pending")) | ("kind", Some("other"))
                        ) || ov.as_array().is_some_and(|x| x.is_empty());
                        if !default {
                            return Err(format!("{p} = {ov} was lost in decoding").into());
                        }
                    }
                }
            }
            if let Some(k) = a.keys().find(|k| !o.contains_key(*k)) {
                return Err(format!("{path}.{k} appeared in decoding").into());
            }
            Ok(())
        }
        (Value::Array(a), Value::Array(o)) if a.len() == o.len() => a
            .iter()
            .zip(o)
            .enumerate()
            .try_for_each(|(i, (av, ov))| covers(av, ov, &format!("{path}[{i}]"))),
        (a, o) if a == o => Ok(()),
        (a, o) => Err(format!("{path}: {o} decoded as {a}").into()),
    }
}
