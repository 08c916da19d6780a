//! Merging synthetic pieces: what is refused, with which message, and what a
//! good merge holds.

use serde_json::json;

use super::*;

const PLAN: [&str; 4] = ["op/size=1", "op/size=2", "op/size=3", "op/size=4"];

/// A piece `index` of `count` holding the given sizes, measured on `machine`.
fn piece(file: &str, index: u32, count: u32, sizes: &[u32], hash: &str, machine: &str) -> Input {
    let cells: Vec<_> = sizes
        .iter()
        .flat_map(|s| {
            ["a", "b"].map(|imp| {
                json!({
                    "id": format!("op/{imp}/size={s}"), "implementation": imp, "operation": "op",
                    "params": {"size": s}, "outcome": "ok", "message": null, "payload_bytes": null,
                    "warmup_runs": 0, "runs_requested": 6, "warmup_wall_ns": [],
                    "samples": {"wall_ns": if imp == "a" { [10, 11, 12, 10, 11, 12] } else { [20, 22, 24, 20, 22, 24] },
                                "user_ns": [], "sys_ns": [], "max_rss_bytes": []},
                    "started_at": format!("t{index}-{s}"), "stats": null
                })
            })
        })
        .collect();
    let doc = json!({
        "schema_version": 1,
        "suite": {"name": "s", "description": null, "file": "s.toml", "baseline": "a",
                  "command": format!("versus run s.toml --shard {index}/{count}"), "hash": hash},
        "started_at": format!("2026-01-01T00:00:0{index}Z"), "finished_at": "2026-01-01T00:01:00Z",
        "status": "complete",
        "environment": {"versus_version": "0.1.0", "cpu_model": "cpu", "cores": 2, "memory_bytes": 1,
                        "os": "os", "kernel": "k", "load_average": 0.1, "cpu_governor": null,
                        "memory_limit_mechanism": "none", "implementations": {},
                        "machine": {"id": machine, "hostname": format!("host-{machine}")}},
        "matrix": {"size": [1, 2, 3, 4]}, "operations": ["op"],
        "cells": cells, "comparisons": [], "warnings": [],
        "shard": {"index": index, "count": count, "basis": "runs", "cost_share": 0.5,
                  "groups": sizes.iter().map(|s| format!("op/size={s}")).collect::<Vec<_>>(),
                  "plan": PLAN}
    });
    Input {
        file: file.into(),
        results: serde_json::from_value(doc).unwrap(),
    }
}

fn two_halves() -> Vec<Input> {
    vec![
        piece("p1.json", 1, 2, &[2, 4], "h", "m2"),
        piece("p0.json", 0, 2, &[1, 3], "h", "m1"),
    ]
}

#[test]
fn complete_pieces_merge_in_plan_order_with_each_machine_kept() {
    let r = merge(two_halves(), false, "versus merge".into()).unwrap();
    let ids: Vec<&str> = r.cells.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "op/a/size=1",
            "op/b/size=1",
            "op/a/size=2",
            "op/b/size=2",
            "op/a/size=3",
            "op/b/size=3",
            "op/a/size=4",
            "op/b/size=4"
        ]
    );
    let machines: Vec<&str> = r.cells.iter().map(|c| c.machine.as_deref().unwrap()).collect();
    assert_eq!(machines, ["m1", "m1", "m2", "m2", "m1", "m1", "m2", "m2"]);
    assert_eq!(r.status, RunStatus::Complete);
    assert!(r.shard.is_none());
    let m = r.merge.as_ref().unwrap();
    assert!(m.missing.is_empty());
    assert_eq!(m.pieces.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(m.pieces[1].groups, ["op/size=2", "op/size=4"]);
    // Every group's comparison survives: a group never spans machines.
    assert_eq!(r.comparisons.len(), 8);
    assert!(r.warnings.iter().any(|w| w.kind == "several_machines"));
    assert_eq!(r.suite.command, "versus merge");
}

#[test]
fn ratios_are_never_made_across_machines() {
    let mut pieces = two_halves();
    // A (wrongly made) piece whose cells of one group came from another machine.
    pieces[1].results.cells[1].started_at = Some("x".into());
    let mut r = merge(pieces, false, "m".into()).unwrap();
    r.cells[1].machine = Some("elsewhere".into());
    crate::analysis::analyze(&mut r, &[]);
    assert!(
        !r.comparisons
            .iter()
            .any(|c| c.implementation == "b" && c.params["size"].to_string() == "1")
    );
}

#[test]
fn a_piece_of_another_suite_is_refused_naming_both_files() {
    let mut pieces = two_halves();
    pieces[0] = piece("other.json", 1, 2, &[2, 4], "h2", "m2");
    let e = merge(pieces, false, String::new()).unwrap_err();
    assert!(matches!(e, MergeError::ForeignSuite { .. }));
    let text = e.to_string();
    assert!(text.contains("other.json") && text.contains("p0.json"), "{text}");
}

#[test]
fn a_doubled_group_is_refused_even_when_partial() {
    let mut pieces = two_halves();
    pieces.push(piece("again.json", 1, 2, &[2], "h", "m3"));
    let e = merge(pieces, true, String::new()).unwrap_err();
    assert_eq!(
        e,
        MergeError::Doubled(vec!["op/size=2 (in p1.json, again.json)".into()])
    );
}

#[test]
fn missing_groups_are_refused_unless_partial_and_then_named() {
    let pieces = vec![piece("p0.json", 0, 2, &[1, 3], "h", "m1")];
    let e = merge(pieces, false, String::new()).unwrap_err();
    let text = e.to_string();
    assert!(matches!(
        e,
        MergeError::Missing {
            missing: 2,
            total: 4,
            ..
        }
    ));
    assert!(
        text.contains("op/size=2, op/size=4") && text.contains("no piece given for shard 1/2"),
        "{text}"
    );
    let pieces = vec![piece("p0.json", 0, 2, &[1, 3], "h", "m1")];
    let r = merge(pieces, true, String::new()).unwrap();
    assert_eq!(r.status, RunStatus::Interrupted);
    assert_eq!(r.merge.unwrap().missing, ["op/size=2", "op/size=4"]);
    assert!(r.warnings.iter().any(|w| w.kind == "missing_groups"));
}

#[test]
fn an_interrupted_piece_is_named() {
    let mut pieces = two_halves();
    pieces[0] = piece("p1.json", 1, 2, &[2], "h", "m2");
    pieces[0].results.status = RunStatus::Interrupted;
    let text = merge(pieces, false, String::new()).unwrap_err().to_string();
    assert!(
        text.contains("op/size=4") && text.contains("p1.json did not finish (interrupted)"),
        "{text}"
    );
}

#[test]
fn whole_runs_and_other_plans_are_refused() {
    let mut pieces = two_halves();
    pieces[0].results.shard = None;
    assert_eq!(
        merge(pieces, false, String::new()).unwrap_err(),
        MergeError::NotAPiece("p1.json".into())
    );
    let mut pieces = two_halves();
    pieces[1].results.shard.as_mut().unwrap().count = 3;
    assert!(matches!(
        merge(pieces, false, String::new()).unwrap_err(),
        MergeError::OtherPlan { count: 3, .. }
    ));
    let mut pieces = two_halves();
    pieces[1].results.suite.hash = None;
    assert_eq!(
        merge(pieces, false, String::new()).unwrap_err(),
        MergeError::NoHash("p0.json".into())
    );
    assert_eq!(merge(vec![], false, String::new()).unwrap_err(), MergeError::Empty);
}
