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
        revisions: None,
        cache: dir.join("payload-cache"),
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
    let recovered = results::Journal::recover(&dir.path().join("cells.jsonl")).unwrap();
    // The run's header comes first, so the journal alone can be rendered.
    let header = recovered.header.unwrap();
    assert_eq!(
        (header.suite.name.as_str(), header.status),
        ("fake", RunStatus::Running)
    );
    let journal = recovered.cells;
    let ids: Vec<&String> = results.cells.iter().map(|c| &c.id).collect();
    let mut journaled: Vec<&String> = journal.keys().collect();
    journaled.sort();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(journaled, expected);
    // The scratch folders are gone.
    assert!(!dir.path().join("work").exists() && !dir.path().join("tmp").exists());
}

/// The journal is the only thing written while the run goes: the results
/// a resume would rebuild from it equal the results written at the end.
#[test]
fn the_final_results_equal_what_the_journal_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    let (results, _) = session_run(dir.path(), true);
    let suite = parse(Path::new("fake.toml"), SUITE).unwrap();
    let plan = build(&suite, &Selection::default()).unwrap();
    let journal = results::Journal::recover(&dir.path().join("cells.jsonl"))
        .unwrap()
        .cells;
    let mut rebuilt = results.clone();
    rebuilt.cells = document::into_plan_order(&suite, &plan, journal);
    rebuilt.comparisons.clear();
    rebuilt.warnings.clear();
    crate::analysis::analyze(&mut rebuilt, &[]);
    assert_eq!(rebuilt, results);
    assert!(
        !dir.path().join("results.json").exists(),
        "the session writes no results file"
    );
}

#[test]
fn without_a_checkpoint_nothing_is_written_but_the_results_are_the_same() {
    let (with, _) = session_run(tempfile::tempdir().unwrap().path(), true);
    let dir = tempfile::tempdir().unwrap();
    let (without, _) = session_run(dir.path(), false);
    assert!(!dir.path().join("cells.jsonl").exists());
    // The fake's times are fixed; the gaps between runs are versus's own, on the real clock.
    let measured = |r: &Results| {
        r.cells
            .iter()
            .map(|c| {
                let mut samples = c.samples.clone();
                if let Some(order) = samples.order.as_mut() {
                    order.gap_ns = Default::default();
                }
                (c.id.clone(), c.outcome, samples)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(measured(&with), measured(&without));
}
