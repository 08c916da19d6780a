//! A whole session on the fake executor: the session adds the document,
//! the checkpoint and the end state around the runner, and changes nothing
//! that was measured.

use std::path::Path;

use indexmap::IndexMap;

use super::*;
use crate::plan::{Selection, build};
use crate::runner::NoEvents;
use crate::runner::fake::Fake;
use crate::suite::parse;

const SUITE: &str = r#"
name = "fake"
[settings]
runs = 3
warmup = 1
[matrix]
size = ["100", "200"]
[payload]
size = "{size}"
[operations.enc]
[operations.dec]
input = "enc"
roundtrip = true
[implementations.good]
run = { enc = "copy {in}", dec = "copy {enc.out}" }
[implementations.broken]
run = { enc = "fail", dec = "copy {in}" }
"#;

fn session_run(dir: &Path, checkpoint: bool) -> (Results, End) {
    let suite = parse(Path::new("fake.toml"), SUITE).unwrap();
    let plan = build(&suite, &Selection::default()).unwrap();
    let checkpoint = checkpoint.then(|| Checkpoint {
        journal: results::Journal::open(&dir.join("cells.jsonl")).unwrap(),
        results_path: dir.join("results.json"),
    });
    let session = Session {
        suite: &suite,
        plan: &plan,
        dir,
        resume: IndexMap::new(),
        warnings: vec![],
        checkpoint,
        noise: 0.01,
        shard: None,
    };
    session.run(&mut Fake::new(), &mut NoEvents).unwrap()
}

#[test]
fn a_session_records_every_group_and_ends_complete() {
    let dir = tempfile::tempdir().unwrap();
    let (results, end) = session_run(dir.path(), true);
    assert_eq!(end, End::Complete);
    assert_eq!(results.status, RunStatus::Complete);
    assert_eq!(results.cells.len(), 8);
    let journal = results::Journal::recover(&dir.path().join("cells.jsonl"))
        .unwrap()
        .cells;
    let ids: Vec<&String> = results.cells.iter().map(|c| &c.id).collect();
    let mut journaled: Vec<&String> = journal.keys().collect();
    journaled.sort();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(journaled, expected);
    // The scratch folders are gone; the checkpoint file is there.
    assert!(!dir.path().join("work").exists() && !dir.path().join("tmp").exists());
    assert!(dir.path().join("results.json").is_file());
}

#[test]
fn the_final_results_equal_what_the_last_checkpoint_wrote_apart_from_the_end_state() {
    let dir = tempfile::tempdir().unwrap();
    let (results, _) = session_run(dir.path(), true);
    let mut written = results::read(&dir.path().join("results.json")).unwrap();
    assert_eq!(written.status, RunStatus::Running);
    written.status = results.status;
    written.finished_at = results.finished_at.clone();
    assert_eq!(written, results);
}

#[test]
fn without_a_checkpoint_nothing_is_written_but_the_results_are_the_same() {
    let (with, _) = session_run(tempfile::tempdir().unwrap().path(), true);
    let dir = tempfile::tempdir().unwrap();
    let (without, _) = session_run(dir.path(), false);
    assert!(!dir.path().join("results.json").exists());
    let measured = |r: &Results| {
        r.cells
            .iter()
            .map(|c| (c.id.clone(), c.outcome, c.samples.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(measured(&with), measured(&without));
}
