//! The index: every suite on every machine with its newest run and what
//! that run changed since the run before, newest first; then the list of
//! changes, each with the run and commit that brought it.

use super::layout::{a, change, commit, page, table};
use super::paths;
use crate::base::sink::html;
use crate::history::site::model::{ChangeEntry, ChangeKind, SuiteHistory};

/// At most this many changes are listed on the index (`versus site --regressions` gives them all).
pub(crate) const CHANGES_LISTED: usize = 200;

fn machine_name(h: &SuiteHistory) -> String {
    let id: String = h.machine.chars().take(12).collect();
    match &h.hostname {
        Some(host) => format!("{host} ({id})"),
        None => id,
    }
}

fn since_text(h: &SuiteHistory) -> String {
    match &h.since {
        Some(s) if s.faster + s.slower + s.same + s.unknown == 0 => format!(
            "<span class=\"muted\">no cell in common with run {}</span>",
            s.against_run
        ),
        Some(s) => format!(
            "<span class=\"faster\">{} faster</span>, <span class=\"slower\">{} slower</span>, {} same, {} unknown (against run {})",
            s.faster, s.slower, s.same, s.unknown, s.against_run
        ),
        None => "<span class=\"muted\">no earlier run</span>".into(),
    }
}

fn suite_rows(suites: &[SuiteHistory]) -> Vec<Vec<String>> {
    let mut order: Vec<&SuiteHistory> = suites.iter().collect();
    order.sort_by_key(|h| std::cmp::Reverse(h.newest().map_or(0, |r| r.id)));
    order
        .iter()
        .filter_map(|h| {
            let run = h.newest()?;
            Some(vec![
                a(&paths::suite(&h.suite), &h.suite),
                html(&machine_name(h)),
                h.runs.len().to_string(),
                format!(
                    "{} {}",
                    a(&paths::report(run.id), &format!("run {}", run.id)),
                    html(&run.started_at)
                ),
                commit(run.git_commit.as_deref()),
                since_text(h),
            ])
        })
        .collect()
}

/// The list of changes as table rows, links relative to `from`.
pub(crate) fn change_rows(from: &str, changes: &[ChangeEntry]) -> Vec<Vec<String>> {
    changes
        .iter()
        .map(|e| {
            // A bisected cell is named as its suite declares it, which is
            // not a cell of the site (its runs label each revision).
            let cell = match e.kind {
                ChangeKind::Bisect => html(&e.cell),
                _ => a(&paths::link(from, &paths::cell(&e.suite, &e.machine, &e.cell)), &e.cell),
            };
            vec![
                e.run_id.to_string(),
                html(&e.started_at),
                commit(e.commit.as_deref()),
                html(&e.suite),
                cell,
                change(e.ratio),
                match e.kind {
                    ChangeKind::Newest => "newest run against the run before".into(),
                    ChangeKind::Step => "step in the cell's history".into(),
                    ChangeKind::Bisect => format!("bisect: {}", html(e.conclusion.as_deref().unwrap_or_default())),
                },
            ]
        })
        .collect()
}

/// The index page.
pub(crate) fn render(suites: &[SuiteHistory], changes: &[ChangeEntry]) -> String {
    let mut body = String::from("<h2>Suites</h2>\n");
    body.push_str(&table(
        &[
            "Suite",
            "Machine",
            "Runs",
            "Newest run",
            "Commit",
            "Since the run before",
        ],
        &suite_rows(suites),
        &[2],
    ));
    body.push_str("<h2>Changes</h2>\n");
    if changes.is_empty() {
        body.push_str("<p>No change found in any cell's history.</p>\n");
    } else {
        let shown = &changes[..changes.len().min(CHANGES_LISTED)];
        body.push_str(&table(
            &["Run", "Started", "Commit", "Suite", "Cell", "Change", "Found as"],
            &change_rows(paths::INDEX, shown),
            &[0, 5],
        ));
        if changes.len() > shown.len() {
            body.push_str(&format!(
                "<p class=\"muted\">{} older changes not listed: <code>versus site --regressions</code> lists them all.</p>\n",
                changes.len() - shown.len()
            ));
        }
    }
    body.push_str(
        "<p class=\"muted\">Made by <code>versus site</code> from the history store. \
A machine's runs are never mixed with another's. Bisect results are not recorded in the store, so none is shown.</p>",
    );
    page("Benchmarks", &[], &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::site::model::SinceCounts;

    fn history(since: Option<SinceCounts>) -> SuiteHistory {
        SuiteHistory {
            suite: "s".into(),
            machine: "m".into(),
            hostname: None,
            cpu_model: String::new(),
            runs: vec![],
            baseline: None,
            command: String::new(),
            cells: vec![],
            since,
            reports: vec![],
        }
    }

    #[test]
    fn a_run_with_no_cell_in_common_says_so_instead_of_four_zeros() {
        let none = SinceCounts {
            against_run: 10,
            ..Default::default()
        };
        assert_eq!(
            since_text(&history(Some(none))),
            "<span class=\"muted\">no cell in common with run 10</span>"
        );
        let some = SinceCounts { slower: 2, ..none };
        assert!(since_text(&history(Some(some))).contains("2 slower"));
        assert!(since_text(&history(None)).contains("no earlier run"));
    }
}
