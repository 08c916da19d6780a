//! The fuzz corpus replayed on every test run: each input that libFuzzer
//! kept in `fuzz/corpus/<target>/` (`bash bench/fuzz.sh` grows them, and
//! every crash it found is one of them) goes through what its target
//! feeds — the suite parser, the results reader with analysis, diff and
//! every renderer, the worker protocol decoder, and the journal reader of
//! `versus report DIR` — and must come back without a panic. A hang shows
//! as this test running past its time.

use std::fs;
use std::path::{Path, PathBuf};

use versus::report::formats::{export, html, markdown, terminal};

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
}

/// Each input of `target` that is text (libFuzzer gives a `&str` target only those).
fn texts(target: &str) -> Vec<(PathBuf, String)> {
    corpus(target)
        .into_iter()
        .filter_map(|p| String::from_utf8(fs::read(&p).unwrap()).ok().map(|t| (p, t)))
        .collect()
}

#[test]
fn the_suite_corpus_parses_or_is_refused() {
    for (_, text) in texts("suite") {
        let _ = versus::suite::parse(Path::new("fuzz.toml"), &text);
    }
}

#[test]
fn the_protocol_corpus_decodes_or_is_refused() {
    for (_, line) in texts("protocol") {
        let _ = versus::worker::Message::decode(&line);
    }
}

#[test]
fn the_results_corpus_is_read_analysed_and_rendered_or_refused() {
    for (_, text) in texts("results") {
        let Ok(mut results) = versus::results::from_text(&text) else {
            continue;
        };
        let _ = html::render(&results, None);
        let _ = markdown::render(&results);
        let _ = export::csv(&results);
        let _ = terminal::summary(&results);
        versus::analysis::analyze(&mut results, &[]);
        let book = versus::history::judge::Prior::default();
        let d = versus::history::runs::diff(&results, &results, versus::base::metric::Metric::Wall, &book);
        let _ = versus::history::runs::table(&d, 0.01);
    }
}

#[test]
fn the_journal_corpus_is_rebuilt_and_rendered_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    for input in corpus("journal") {
        let path = dir.path().join("cells.jsonl");
        fs::copy(&input, &path).unwrap();
        let Ok(found) = versus::results::Journal::read(&path) else {
            continue;
        };
        let why = versus::session::Why::Asked;
        let (mut doc, _) = versus::session::rebuild(found, &path, None, why);
        versus::analysis::reanalyze(&mut doc);
        let _ = markdown::render(&doc);
        let _ = terminal::summary(&doc);
    }
}
