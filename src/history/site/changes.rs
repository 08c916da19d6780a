//! The list of changes outside the site: as text for a terminal or a CI
//! log, and as JSON for scripts (`versus site --regressions [--json]`).
//! The JSON is a versioned envelope, `{"version": 1, "changes": [...]}`;
//! readers should ignore fields they do not know, as more may be added.

use serde::Serialize;

use crate::history::site::model::{ChangeEntry, ChangeKind};

/// The version of the JSON below; raised when a field changes meaning or goes.
pub(crate) const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct Envelope<'a> {
    version: u32,
    /// Slower changes of some suite's newest run: what the exit status 4 means.
    newest_slower: usize,
    changes: &'a [ChangeEntry],
}

/// The list as JSON.
pub(crate) fn json(changes: &[ChangeEntry]) -> String {
    let newest_slower = changes
        .iter()
        .filter(|e| e.kind == ChangeKind::Newest && e.slower)
        .count();
    let envelope = Envelope {
        version: JSON_VERSION,
        newest_slower,
        changes,
    };
    serde_json::to_string_pretty(&envelope).unwrap_or_default() + "\n"
}

/// The list as text, one change a line, newest run first. Names are not
/// escaped here: the terminal's sink (`say!`) does that on the way out.
pub(crate) fn text(changes: &[ChangeEntry]) -> String {
    if changes.is_empty() {
        return "no changes in the history store\n".into();
    }
    let mut out = String::new();
    for e in changes {
        let commit: String = e.commit.as_deref().unwrap_or("-").chars().take(12).collect();
        let what = match e.kind {
            ChangeKind::Newest => "newest run",
            ChangeKind::Step => "step",
            ChangeKind::Bisect => {
                let said = e.conclusion.as_deref().unwrap_or_default();
                out.push_str(&format!("run {} {} {}: bisect: {said}\n", e.run_id, e.suite, e.cell));
                continue;
            }
        };
        out.push_str(&format!(
            "run {} commit {commit} {} {}: {} {:+.1}% ({what})\n",
            e.run_id,
            e.suite,
            e.cell,
            if e.slower { "SLOWER" } else { "faster" },
            (e.ratio - 1.0) * 100.0
        ));
    }
    out
}
