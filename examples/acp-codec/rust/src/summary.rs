//! The canonical summary every implementation of the example prints: counts
//! and sums over fields read from each decoded message, so identical bytes
//! across languages mean every message was read (see ../../README.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;

pub const KINDS: [&str; 10] = [
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
pub const TOOL_STATUSES: [&str; 5] = ["pending", "in_progress", "completed", "failed", "none"];

#[derive(Default)]
pub struct Summary {
    pub messages: u64,
    pub kinds: [u64; KINDS.len()],
    pub sessions: BTreeMap<String, u64>,
    pub text_chars: u64,
    pub resource_links: u64,
    pub tool_locations: u64,
    pub tool_status: [u64; TOOL_STATUSES.len()],
    pub tool_content: u64,
    pub plan_entries: u64,
    pub plan_completed: u64,
    pub commands: u64,
    pub usage_used: u64,
}

impl Summary {
    /// Counts one message of session `sid` with an update of kind `kind` (an index into KINDS).
    pub fn message(&mut self, sid: &str, kind: usize) {
        self.messages += 1;
        self.kinds[kind] += 1;
        // Look up before inserting, so the common case does not allocate.
        match self.sessions.get_mut(sid) {
            Some(n) => *n += 1,
            None => {
                self.sessions.insert(sid.to_owned(), 1);
            }
        }
    }

    pub fn render(&self) -> String {
        let mut s = String::with_capacity(1024);
        let _ = writeln!(s, "messages {}", self.messages);
        for (k, n) in KINDS.iter().zip(self.kinds) {
            let _ = writeln!(s, "kind {k} {n}");
        }
        for (id, n) in &self.sessions {
            let _ = writeln!(s, "session {id} {n}");
        }
        let _ = writeln!(s, "text_chars {}", self.text_chars);
        let _ = writeln!(s, "resource_links {}", self.resource_links);
        let _ = writeln!(s, "tool_locations {}", self.tool_locations);
        for (k, n) in TOOL_STATUSES.iter().zip(self.tool_status) {
            let _ = writeln!(s, "tool_status {k} {n}");
        }
        let _ = writeln!(s, "tool_content {}", self.tool_content);
        let _ = writeln!(s, "plan_entries {}", self.plan_entries);
        let _ = writeln!(s, "plan_completed {}", self.plan_completed);
        let _ = writeln!(s, "commands {}", self.commands);
        let _ = writeln!(s, "usage_used {}", self.usage_used);
        s
    }
}
