//! The report checker (`findings::check`) over every committed report: each
//! `docs/results/**/results.json`, analysed again by this versus as `versus
//! report` does, must hold no finding that its own verdicts contradict.

use std::path::{Path, PathBuf};

fn results_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            results_files(&path, out);
        } else if path.file_name().is_some_and(|n| n == "results.json") {
            out.push(path);
        }
    }
}

#[test]
fn every_committed_report_holds_no_contradicted_finding() {
    let mut files = Vec::new();
    results_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results"), &mut files);
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut wrong = Vec::new();
    for path in &files {
        let mut r = versus::results::read(path).unwrap();
        versus::analysis::reanalyze(&mut r);
        wrong.extend(
            versus::analysis::contradictions(&r)
                .into_iter()
                .map(|c| format!("{}: {c}", path.display())),
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The words a verdict may not be given in: "tie" where the verdict is
/// `same` or `unknown`, and the words of earlier versions' verdicts.
const RETIRED: &[&str] = &["tie", "ties", "tied", "not confirmed", "indistinguishable"];

/// Notes written against an earlier versus, before its verdicts had three
/// answers; the lead rewrites each after re-running its suite (issue 27).
/// The test fails when one of these no longer uses a retired word (take it
/// off the list) or when another note does.
const NOTES_IN_OLD_WORDS: &[&str] = &[];

fn retired_words(text: &str) -> Vec<&'static str> {
    let lower = text.to_lowercase();
    RETIRED
        .iter()
        .copied()
        .filter(|w| {
            lower.match_indices(w).any(|(i, _)| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + w.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
            })
        })
        .collect()
}

#[test]
fn notes_use_the_words_of_the_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".notes.md") {
            continue;
        }
        let found = retired_words(&std::fs::read_to_string(&path).unwrap());
        match (found.is_empty(), NOTES_IN_OLD_WORDS.contains(&name.as_str())) {
            (false, false) => wrong.push(format!(
                "{name} says {found:?}: use same or unknown, as the verdicts do"
            )),
            (true, true) => wrong.push(format!(
                "{name} no longer uses retired words: take it off NOTES_IN_OLD_WORDS"
            )),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(retired_words("A and B tie; the ties; untied"), ["tie", "ties"]);
}
