//! `versus merge`: the pieces of a sharded run (`versus run --shard K/N`),
//! measured on one or several machines, put back into one results document.
//!
//! A merge is honest or it is refused: every piece must come from the same
//! suite file (its SHA-256) and the same plan, and together they must hold
//! every group of the plan exactly once. A group in two pieces is always
//! refused (which figures would be the real ones?); a missing group is
//! refused unless the caller accepts a partial merge, and then the document
//! names what is missing. Each cell keeps the machine that measured it, and
//! comparisons are only made between cells of one machine (a group never
//! spans machines, so every ratio of a complete run survives).
//!
//! This module only joins documents; reading the files and writing the
//! merged one (and, later, recording it in the history store) is `app`'s.

use std::collections::{BTreeSet, HashMap};

use crate::analysis;
use crate::results::{self, MergeInfo, Piece, Results, RunStatus, ShardInfo, Warning};

/// One piece as read: where from (as the user named it) and what it holds.
pub(crate) struct Input {
    pub file: String,
    pub results: Results,
}

/// Why pieces cannot be merged. Each names the files and groups involved.
#[derive(Debug, thiserror::Error, PartialEq)]
pub(crate) enum MergeError {
    #[error("nothing to merge: give the pieces' results.json files or folders")]
    Empty,
    #[error("{0}: not a piece of a sharded run (it has no `shard`; make pieces with `versus run --shard K/N`)")]
    NotAPiece(String),
    #[error("{0}: no suite hash (written by an older versus), so its suite cannot be checked; run the piece again")]
    NoHash(String),
    #[error(
        "{file} comes from another suite than {first}: suite file SHA-256 {hash} vs {first_hash}. Pieces must be runs of the same suite file, byte for byte"
    )]
    ForeignSuite {
        file: String,
        hash: String,
        first: String,
        first_hash: String,
    },
    #[error(
        "{file} is piece {index} of {count} but {first} is of {first_count}, or their plans differ (other --only, matrix or overrides). Run every piece with the same flags but --shard"
    )]
    OtherPlan {
        file: String,
        index: u32,
        count: u32,
        first: String,
        first_count: u32,
    },
    #[error("{} group(s) are held by more than one piece: {}. Give each shard's piece once", .0.len(), .0.join("; "))]
    Doubled(Vec<String>),
    #[error(
        "{missing} of {total} group(s) are missing: {detail}. Run the missing pieces, or pass --partial to merge what is here"
    )]
    Missing {
        missing: usize,
        total: usize,
        detail: String,
    },
}

/// The groups (keys) whose cells a document holds.
fn held_groups(r: &Results) -> BTreeSet<String> {
    r.cells
        .iter()
        .map(|c| results::group_key(&c.operation, &c.params))
        .collect()
}

/// Checks every piece is a piece, of the same suite and plan as the first.
fn check_same_run(inputs: &[Input]) -> Result<&ShardInfo, MergeError> {
    let first = inputs.first().ok_or(MergeError::Empty)?;
    fn shard_of(i: &Input) -> Result<&ShardInfo, MergeError> {
        i.results
            .shard
            .as_ref()
            .ok_or_else(|| MergeError::NotAPiece(i.file.clone()))
    }
    let hash_of = |i: &Input| {
        i.results
            .suite
            .hash
            .clone()
            .ok_or_else(|| MergeError::NoHash(i.file.clone()))
    };
    let (first_shard, first_hash) = (shard_of(first)?, hash_of(first)?);
    for i in &inputs[1..] {
        let (shard, hash) = (shard_of(i)?, hash_of(i)?);
        if hash != first_hash {
            return Err(MergeError::ForeignSuite {
                file: i.file.clone(),
                hash,
                first: first.file.clone(),
                first_hash,
            });
        }
        if shard.count != first_shard.count || shard.plan != first_shard.plan {
            return Err(MergeError::OtherPlan {
                file: i.file.clone(),
                index: shard.index,
                count: shard.count,
                first: first.file.clone(),
                first_count: first_shard.count,
            });
        }
    }
    Ok(first_shard)
}

/// The plan's groups no piece holds, or an error naming doubled ones.
fn coverage(inputs: &[Input], plan: &[String], partial: bool) -> Result<Vec<String>, MergeError> {
    let mut holders: HashMap<String, Vec<String>> = HashMap::new();
    for i in inputs {
        for g in held_groups(&i.results) {
            holders.entry(g).or_default().push(i.file.clone());
        }
    }
    let doubled: Vec<String> = plan
        .iter()
        .filter_map(|g| {
            let files = holders.get(g)?;
            (files.len() > 1).then(|| format!("{g} (in {})", files.join(", ")))
        })
        .collect();
    if !doubled.is_empty() {
        return Err(MergeError::Doubled(doubled));
    }
    let missing: Vec<String> = plan.iter().filter(|g| !holders.contains_key(*g)).cloned().collect();
    if missing.is_empty() || partial {
        return Ok(missing);
    }
    Err(MergeError::Missing {
        missing: missing.len(),
        total: plan.len(),
        detail: missing_detail(inputs, &missing),
    })
}

/// Names the missing groups and why they are missing: a shard with no
/// piece, or a piece that did not finish.
pub(crate) fn missing_detail(inputs: &[Input], missing: &[String]) -> String {
    let mut parts = vec![missing.join(", ")];
    let Some(count) = inputs.first().and_then(|i| i.results.shard.as_ref()).map(|s| s.count) else {
        return parts.join("");
    };
    let given: BTreeSet<u32> = inputs
        .iter()
        .filter_map(|i| i.results.shard.as_ref().map(|s| s.index))
        .collect();
    let absent: Vec<String> = (0..count)
        .filter(|k| !given.contains(k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !absent.is_empty() {
        parts.push(format!("no piece given for shard {}", absent.join(", ")));
    }
    for i in inputs.iter().filter(|i| i.results.status != RunStatus::Complete) {
        let status = match i.results.status {
            RunStatus::Running => "still running or killed",
            _ => "interrupted",
        };
        parts.push(format!("{} did not finish ({status})", i.file));
    }
    parts.join("; ")
}

/// Joins the pieces. `command` is the merge's own command line. The result
/// is analysed (statistics, within-machine comparisons, warnings).
pub(crate) fn merge(mut inputs: Vec<Input>, partial: bool, command: String) -> Result<Results, MergeError> {
    let plan = check_same_run(&inputs)?.plan.clone();
    let missing = coverage(&inputs, &plan, partial)?;
    inputs.sort_by_key(|i| i.results.shard.as_ref().map_or(0, |s| s.index));
    let order: HashMap<&str, usize> = plan.iter().enumerate().map(|(i, g)| (g.as_str(), i)).collect();
    let mut merged = inputs[0].results.clone();
    merged.suite.command = command;
    merged.started_at = inputs
        .iter()
        .map(|i| i.results.started_at.clone())
        .min()
        .unwrap_or_default();
    merged.finished_at = inputs
        .iter()
        .map(|i| i.results.finished_at.clone())
        .collect::<Option<Vec<_>>>()
        .and_then(|f| f.into_iter().max());
    let complete = missing.is_empty() && inputs.iter().all(|i| i.results.status == RunStatus::Complete);
    merged.status = if complete {
        RunStatus::Complete
    } else {
        RunStatus::Interrupted
    };
    merged.cells = inputs
        .iter()
        .flat_map(|i| {
            let machine = i.results.environment.machine.as_ref().map(|m| m.id.clone());
            i.results.cells.iter().map(move |c| {
                let mut c = c.clone();
                c.machine = machine.clone();
                c
            })
        })
        .collect();
    // Plan order; a stable sort keeps each group's implementations in their order.
    merged
        .cells
        .sort_by_key(|c| order.get(results::group_key(&c.operation, &c.params).as_str()).copied());
    merged.shard = None;
    merged.merge = Some(MergeInfo {
        pieces: inputs.iter().map(piece).collect(),
        missing: missing.clone(),
    });
    analysis::analyze(&mut merged, &[]);
    merged.warnings.extend(merge_warnings(&inputs, &missing, plan.len()));
    Ok(merged)
}

fn piece(i: &Input) -> Piece {
    let shard = i.results.shard.clone().unwrap_or_default();
    Piece {
        file: i.file.clone(),
        index: shard.index,
        count: shard.count,
        command: i.results.suite.command.clone(),
        started_at: i.results.started_at.clone(),
        finished_at: i.results.finished_at.clone(),
        status: i.results.status,
        environment: i.results.environment.clone(),
        groups: held_groups(&i.results).into_iter().collect(),
    }
}

/// What a reader of the merged report must know: missing groups, several
/// machines, versions that differ between them, and each other piece's own
/// machine warnings (the first piece's come from `analyze`).
fn merge_warnings(inputs: &[Input], missing: &[String], total: usize) -> Vec<Warning> {
    let mut out = Vec::new();
    if !missing.is_empty() {
        out.push(Warning {
            kind: "missing_groups".into(),
            message: format!(
                "partial merge: {} of {total} group(s) are missing: {}",
                missing.len(),
                missing_detail(inputs, missing)
            ),
        });
    }
    let machines: BTreeSet<String> = inputs
        .iter()
        .map(|i| {
            i.results
                .environment
                .machine
                .as_ref()
                .map_or("unknown".into(), |m| format!("{} ({})", m.hostname, m.id))
        })
        .collect();
    if machines.len() > 1 {
        out.push(Warning {
            kind: "several_machines".into(),
            message: format!(
                "the pieces ran on {} machines ({}); each group ran on one machine, ratios compare cells of one machine only, and times in different rows may come from different machines",
                machines.len(),
                machines.into_iter().collect::<Vec<_>>().join(", ")
            ),
        });
    }
    let first = &inputs[0].results.environment;
    for i in &inputs[1..] {
        let env = &i.results.environment;
        for (name, info) in &env.implementations {
            if let Some(f) = first.implementations.get(name)
                && f.version != info.version
            {
                out.push(Warning {
                    kind: "versions_differ".into(),
                    message: format!(
                        "{name}: {} in {} but {} in {}",
                        f.version.as_deref().unwrap_or("?"),
                        inputs[0].file,
                        info.version.as_deref().unwrap_or("?"),
                        i.file
                    ),
                });
            }
        }
        for w in analysis::environment_warnings(env) {
            out.push(Warning {
                kind: w.kind,
                message: format!("{}: {}", i.file, w.message),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
