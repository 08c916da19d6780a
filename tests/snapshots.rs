//! Whole outputs rendered from committed results fixtures, compared with
//! reviewed snapshots (`cargo insta review` to accept a deliberate change).
//! A report test that only looks for substrings misses a column that moved
//! or a row that vanished; a snapshot does not.

use std::path::{Path, PathBuf};

use versus::report::formats::{markdown, terminal};
use versus::results::{self, Results};

/// A committed results file as `versus report` renders it: analysed again
/// by this versus (the fixtures predate its verdicts and findings).
fn fixture(name: &str) -> Results {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(name);
    let mut r = results::read(&path).unwrap();
    versus::analysis::reanalyze(&mut r);
    r
}

#[test]
fn terminal_summary_of_a_process_suite() {
    insta::assert_snapshot!(terminal::summary(&fixture("age.json")));
}

#[test]
fn terminal_summary_of_an_inprocess_suite() {
    insta::assert_snapshot!(terminal::summary(&fixture("sha256.json")));
}

/// Every fixture's summary fits a narrow terminal: tables wrap or abbreviate
/// their columns, titles and warnings wrap or are cut; nothing runs past the width.
#[test]
fn terminal_summaries_fit_the_width() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let mut r = results::read(&path).unwrap();
        versus::analysis::reanalyze(&mut r);
        with_a_change_since(&mut r);
        for columns in [80, 60] {
            let text = terminal::summary_with(&r, false, terminal::Layout::plain(columns));
            for line in text.lines() {
                let width = console::measure_text_width(line);
                assert!(
                    width <= columns,
                    "{} at {columns}: {width} columns: {line}",
                    path.display()
                );
            }
        }
    }
}

/// A "change since" table of every cell, as a run recorded in the history gets one.
fn with_a_change_since(r: &mut results::Results) {
    let changes = r
        .cells
        .iter()
        .map(|c| results::Change {
            id: c.id.clone(),
            old_median_ns: Some(1_000_000.0),
            new_median_ns: Some(1_100_000.0),
            ratio: Some(1.1),
            ci_low: Some(1.05),
            ci_high: Some(1.15),
            verdict: Some(results::Verdict::Slower),
            minimum_detectable: Some(0.04),
            note: None,
            reason: None,
            noise: None,
            beside: None,
            shared: vec![],
        })
        .collect();
    r.since = Some(results::Since {
        run_id: 7,
        label: "last run".into(),
        started_at: "2026-11-23T00:00:00Z".into(),
        warning: None,
        noise: None,
        changes,
        metrics: Default::default(),
        shifts: vec![],
        machine: None,
    });
}

#[test]
fn terminal_summary_at_80_columns() {
    insta::assert_snapshot!(terminal::summary_with(
        &fixture("age.json"),
        false,
        terminal::Layout::plain(80)
    ));
}

#[test]
fn markdown_report_of_a_process_suite() {
    insta::assert_snapshot!(markdown::render(&fixture("age.json")));
}

#[test]
fn markdown_report_of_an_inprocess_suite() {
    insta::assert_snapshot!(markdown::render(&fixture("sha256.json")));
}

#[test]
fn diff_of_two_runs() {
    let mut old = fixture("aes-gcm-java.json");
    let mut new = fixture("aes-gcm-java-jdk25.json");
    versus::analysis::analyze(&mut old, &[]);
    versus::analysis::analyze(&mut new, &[]);
    let d = versus::history::runs::diff(&old, &new, versus::base::metric::Metric::Wall, &Default::default());
    let table = versus::history::runs::table(&d, new.analysis.noise);
    insta::assert_snapshot!("diff_terminal", terminal::render_table(&table));
    insta::assert_snapshot!("diff_markdown", markdown::render_diff(&table, &[]));
}

/// The suite at a glance as the HTML report shows it: each implementation
/// against the baseline over every cell (geometric mean, verdict counts).
#[test]
fn overall_section_of_the_html_report() {
    let html = versus::report::formats::html::render(&fixture("age.json"), None).unwrap();
    let start = html.find("<section id=\"overall\">").unwrap();
    let end = start + html[start..].find("</section>").unwrap() + "</section>".len();
    insta::assert_snapshot!(&html[start..end]);
}
