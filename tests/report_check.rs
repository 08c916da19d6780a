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
            versus::findings::check::contradictions(&r)
                .into_iter()
                .map(|c| format!("{}: {c}", path.display())),
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
