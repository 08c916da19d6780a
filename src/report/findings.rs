//! The "Findings" section every report opens with: the document's
//! findings grouped by operation and the values of its other parameters
//! ("encrypt — armor=true"), one line each. Formatting only: the sentences
//! are the ones `findings` wrote into the document.

use serde::Serialize;

use crate::plan::params_key;
use crate::results::Results;

/// One finding as a report line.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// The finding's kind as the results file writes it (`cost`, `crossover`…).
    pub kind: String,
    pub text: String,
}

/// The findings of one operation at one value of its other parameters.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// "encrypt", or "encrypt — armor=true" (as the tables title a subset).
    pub title: String,
    pub lines: Vec<Line>,
}

/// The findings in groups, in the document's order; empty when there are none.
pub fn groups(results: &Results) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for f in &results.findings {
        let label = params_key(&f.params).replace(',', ", ");
        let title = if label.is_empty() {
            f.operation.clone()
        } else {
            format!("{} — {label}", f.operation)
        };
        if out.last().is_none_or(|g| g.title != title) {
            out.push(Group { title, lines: vec![] });
        }
        let kind = serde_json::to_value(f.kind)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        out.last_mut().expect("pushed above").lines.push(Line {
            kind,
            text: f.text.clone(),
        });
    }
    out
}
