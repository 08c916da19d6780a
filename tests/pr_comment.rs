//! The pull-request summary and the revisions table, rendered from a run
//! at two revisions made here in code (its samples chosen so that each kind
//! of answer appears: slower, faster, no change, unknown, and a cell whose
//! build failed), compared with reviewed snapshots (`cargo insta review`).

use serde_json::{Value, json};
use versus::report::formats::{pr_comment, terminal};
use versus::results::{Environment, Results};

/// Runs of 1 ms with a small wobble; `scale` multiplies them, `noise` widens the wobble.
fn runs(scale: f64, noise: f64, phase: usize) -> Vec<u64> {
    let wobble = [0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1.5, -1.5, 0.0];
    (0..20)
        .map(|i| {
            let w = wobble[(i + phase) % wobble.len()] * noise;
            (1_000_000.0 * scale * (1.0 + w)) as u64
        })
        .collect()
}

fn cell(op: &str, imp: &str, size: &str, wall: Option<Vec<u64>>, message: Option<&str>) -> Value {
    let n = wall.as_ref().map_or(0, Vec::len);
    let wall = wall.unwrap_or_default();
    json!({
        "id": format!("{op}/{imp}/size={size}"),
        "implementation": imp,
        "operation": op,
        "params": {"size": size},
        "outcome": if message.is_some() { "failed" } else { "ok" },
        "message": message,
        "payload_bytes": null,
        "warmup_runs": 1,
        "runs_requested": 20,
        "warmup_wall_ns": [],
        "samples": {
            "wall_ns": wall,
            "user_ns": vec![0; n],
            "sys_ns": vec![0; n],
            "max_rss_bytes": vec![2_000_000; n],
        },
        "stats": null
    })
}

const BUILD_FAILED: &str = "the build of tool at head (b7e2d1c0a9) failed (exit status: 2); its output is in /home/ci/.cache/versus/revisions/0c1d2e3f4a5b6c7d8e9f/build.log: src/decode.rs:88:5: error[E0308]: mismatched types";

/// A run of `tool` at base and head (and `ref`, taken as it is) over three
/// operations at two sizes.
fn run_at_two_revisions() -> Results {
    run_at_two_revisions_of("parse")
}

/// The same run with the first operation named `first`.
fn run_at_two_revisions_of(first: &str) -> Results {
    // (operation, size, head's scale and noise); None: head did not build.
    type Case<'a> = (&'a str, &'a str, Option<(f64, f64)>);
    let cases: [Case; 6] = [
        (first, "1KB", Some((1.12, 0.002))),
        (first, "1MB", Some((1.06, 0.002))),
        ("encode", "1KB", Some((0.80, 0.002))),
        ("encode", "1MB", Some((1.0, 0.0005))),
        ("decode", "1KB", Some((1.01, 0.05))),
        ("decode", "1MB", None),
    ];
    let mut cells = Vec::new();
    for (i, (op, size, head)) in cases.iter().enumerate() {
        let base_noise = if op == &"decode" && *size == "1KB" { 0.05 } else { 0.002 };
        cells.push(cell(op, "tool@base", size, Some(runs(1.0, base_noise, i)), None));
        match head {
            Some((scale, noise)) => cells.push(cell(op, "tool@head", size, Some(runs(*scale, *noise, i + 3)), None)),
            None => cells.push(cell(op, "tool@head", size, None, Some(BUILD_FAILED))),
        }
        cells.push(cell(op, "ref", size, Some(runs(0.5, 0.002, i)), None));
    }
    let mut environment = serde_json::to_value(Environment::default()).unwrap();
    environment["versus_version"] = json!("0.1.0");
    environment["cpu_model"] = json!("AMD EPYC 7763 64-Core Processor");
    environment["cores"] = json!(4);
    environment["load_average"] = json!(0.41);
    for imp in ["tool@base", "tool@head", "ref"] {
        environment["implementations"][imp] = json!({"version": null, "note": null});
    }
    let column = |rev: &str, commit: &str, subject: &str, status: &str| {
        json!({
            "implementation": format!("tool@{rev}"), "of": "tool", "revision": rev,
            "commit": commit, "subject": subject,
            "build": {"status": status, "log": "/home/ci/.cache/versus/revisions/x/build.log"}
        })
    };
    let doc = json!({
        "schema_version": 2,
        "suite": {"name": "codec", "description": null, "file": "bench/codec.toml", "baseline": null, "command": "versus run bench/codec.toml --rev base=3f9e2d8 --rev head=b7e2d1c"},
        "started_at": "2026-05-12T16:04:00Z",
        "finished_at": "2026-05-12T16:06:00Z",
        "status": "complete",
        "environment": environment,
        "matrix": {"size": ["1KB", "1MB"]},
        "operations": [first, "encode", "decode"],
        "cells": cells,
        "comparisons": [],
        "warnings": [],
        "revisions": {
            "revisions": [{"label": "base", "rev": "3f9e2d8"}, {"label": "head", "rev": "b7e2d1c"}],
            "columns": [
                column("base", "3f9e2d8c1b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e", "Release 1.4", "cached"),
                column("head", "b7e2d1c0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4", "Parse headers without copying", "failed"),
            ]
        }
    });
    let mut results: Results = serde_json::from_value(doc).unwrap();
    versus::analysis::analyze(&mut results, &[]);
    results
}

#[test]
fn the_pull_request_summary() {
    let r = run_at_two_revisions();
    let text = pr_comment::render(
        &r,
        Some("https://github.com/octo-org/octo-tool/actions/runs/9876543210"),
    );
    assert!(text.starts_with(pr_comment::MARKER));
    insta::assert_snapshot!(text);
}

#[test]
fn the_summary_puts_regressions_first_largest_first() {
    let text = pr_comment::render(&run_at_two_revisions(), None);
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s} missing from:\n{text}"));
    assert!(at("### Slower") < at("### Faster"));
    assert!(
        at("`parse/tool/size=1KB`") < at("`parse/tool/size=1MB`"),
        "+12% before +6%"
    );
    assert!(at("### Faster") < at("### Not measured"));
    assert!(at("### Not measured") < at("<details>"));
    assert!(
        !text.contains("`parse/ref/"),
        "an implementation taken as it is has no revisions"
    );
}

#[test]
fn the_revisions_table_in_the_terminal() {
    let r = run_at_two_revisions();
    let tables = versus::report::revision_tables(&r);
    assert_eq!(tables.len(), 1);
    insta::assert_snapshot!(terminal::render_table_with(&tables[0], terminal::Layout::plain(100)));
}

/// `--fail-above`: the slower verdicts beyond the threshold, as `versus diff` counts them.
#[test]
fn fail_above_counts_slower_verdicts_beyond_the_threshold() {
    let r = run_at_two_revisions();
    let ids = |t: f64| {
        versus::analysis::regressions(&r, t)
            .iter()
            .map(|c| format!("{}/{}", c.operation, c.params["size"]))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(0.05), ["parse/1KB", "parse/1MB"]);
    assert_eq!(ids(0.10), ["parse/1KB"]);
    assert!(
        ids(0.20).is_empty(),
        "a faster cell or an unknown one is never a regression"
    );
}

/// The `|` and backticks in a name (a regex parameter is enough) must not
/// shift the comment's columns, so "change" keeps its figure and the
/// verdict stays; nor end the code span the name is shown in.
#[test]
fn names_cannot_reshape_the_comment() {
    let text = pr_comment::render(&run_at_two_revisions_of("a|b`c"), None);
    let unescaped_pipes = |line: &str| {
        let b = line.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
            .count()
    };
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    assert!(rows.iter().any(|l| l.contains("a\\|b`c")), "{text}");
    for row in &rows {
        assert_eq!(
            unescaped_pipes(row),
            6,
            "a row with a column more or less: {row}\n{text}"
        );
    }
    assert!(text.contains("``a\\|b`c/tool/size=1KB``"), "{text}");
}
