//! Whole outputs rendered from committed results fixtures, compared with
//! reviewed snapshots (`cargo insta review` to accept a deliberate change).
//! A report test that only looks for substrings misses a column that moved
//! or a row that vanished; a snapshot does not.

use std::path::{Path, PathBuf};

use versus::report::{markdown, tables, terminal};
use versus::results::{self, Results};

fn fixture(name: &str) -> Results {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(name);
    results::read(&path).unwrap()
}

#[test]
fn terminal_summary_of_a_process_suite() {
    insta::assert_snapshot!(terminal::summary(&fixture("age.json")));
}

#[test]
fn terminal_summary_of_an_inprocess_suite() {
    insta::assert_snapshot!(terminal::summary(&fixture("sha256.json")));
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
    let d = versus::diff::diff(&old, &new);
    let table = tables::diff_table(&d);
    insta::assert_snapshot!("diff_terminal", terminal::render_table(&table));
    insta::assert_snapshot!("diff_markdown", markdown::render_diff(&table, &[]));
}
