//! A run's document rebuilt from its journal, for `versus report DIR` when
//! the run left no results file (killed with `kill -9`, or still going) or
//! left one older than its journal (a `--resume` that did not finish).
//! Nothing is measured: the journal's groups are what there is, the torn
//! tail of a write cut short is left out, and the document says both.

use indexmap::IndexMap;

use crate::results::{self, Cell, Environment, ImplementationInfo, Recovered, Results, RunStatus, Warning};

/// Why a journal is rendered rather than the results file beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// There is no results file.
    NoResults,
    /// The results file lacks groups the journal holds.
    ResultsOlder,
    /// The journal itself was asked for.
    Asked,
}

/// Whether the journal holds a cell that `results` does not have as
/// recorded (same id and group start): the results file is then older.
pub fn journal_is_newer(journal: &Recovered, results: &Results) -> bool {
    let written: std::collections::HashMap<&str, &Option<String>> =
        results.cells.iter().map(|c| (c.id.as_str(), &c.started_at)).collect();
    journal
        .cells
        .values()
        .any(|c| written.get(c.id.as_str()) != Some(&&c.started_at))
}

/// The document of the run the journal recorded: the header of the last run
/// that wrote to it (else `fallback`'s, else one made from the cells), its
/// cells in the order recorded, status `interrupted`. Returns the document
/// and the warnings saying where it came from; the caller analyses it.
pub fn document(
    journal: Recovered,
    path: &std::path::Path,
    fallback: Option<Results>,
    why: Why,
) -> (Results, Vec<Warning>) {
    let groups = group_count(journal.cells.values());
    let mut doc = journal
        .header
        .map(|h| *h)
        .or(fallback)
        .unwrap_or_else(|| bare_header(&journal.cells));
    doc.cells = journal.cells.into_values().collect();
    doc.status = RunStatus::Interrupted;
    doc.finished_at = None;
    doc.comparisons.clear();
    doc.findings.clear();
    doc.since = None;
    let reason = match why {
        Why::NoResults => " (the run left no results file: it was killed, or is still going)",
        Why::ResultsOlder => {
            " (the results file beside it is older: a later run into this folder, or a --resume, did not finish)"
        }
        Why::Asked => "",
    };
    let mut warnings = vec![Warning {
        kind: "from_journal".into(),
        message: format!(
            "rendered from the journal {}{reason}: {groups} group(s) recorded; groups not recorded are not shown, and `versus run SUITE --resume DIR` measures them",
            path.display()
        ),
    }];
    if journal.unreadable_bytes > 0 {
        warnings.push(Warning {
            kind: "journal_torn".into(),
            message: format!(
                "the journal's last {} bytes could not be read (a write cut short, or a line still being written) and are left out; `--resume` sets them aside and measures their groups again",
                journal.unreadable_bytes
            ),
        });
    }
    (doc, warnings)
}

fn group_count<'a>(cells: impl Iterator<Item = &'a Cell>) -> usize {
    let keys: std::collections::HashSet<String> = cells.map(|c| results::group_key(&c.operation, &c.params)).collect();
    keys.len()
}

/// A header for a journal written before versus recorded one: what the
/// cells themselves say (operations, parameters, implementations).
fn bare_header(cells: &IndexMap<String, Cell>) -> Results {
    let mut matrix: IndexMap<String, Vec<crate::base::params::ParamValue>> = IndexMap::new();
    let mut operations: Vec<String> = Vec::new();
    let mut implementations: IndexMap<String, ImplementationInfo> = IndexMap::new();
    for c in cells.values() {
        for (k, v) in &c.params {
            let values = matrix.entry(k.clone()).or_default();
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
        if !operations.contains(&c.operation) {
            operations.push(c.operation.clone());
        }
        implementations.entry(c.implementation.clone()).or_default();
    }
    Results {
        schema_version: results::SCHEMA_VERSION,
        suite: results::SuiteInfo {
            name: "(a journal without its run's header)".into(),
            ..Default::default()
        },
        started_at: cells.values().find_map(|c| c.started_at.clone()).unwrap_or_default(),
        finished_at: None,
        status: RunStatus::Interrupted,
        environment: Environment {
            implementations,
            ..Default::default()
        },
        analysis: Default::default(),
        design: None,
        matrix,
        operations,
        cells: vec![],
        ..Default::default()
    }
}
