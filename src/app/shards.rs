//! Glue for running a suite in pieces and joining them: `--shard` read from
//! the flag or the scheduler's environment, the plan narrowed to one piece
//! (`plan::shard` does the split), and `versus merge` reading the pieces and
//! writing the merged document and reports (`merge` does the joining).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use crate::app::cli::{MergeArgs, ShardSpec};
use crate::app::exit;
use crate::base::params::params_key;
use crate::merge::{self, Input};
use crate::plan::Plan;
use crate::plan::{self, Shard};
use crate::report::formats::terminal;
use crate::report::{self, Outputs};
use crate::results::{self, Results, ShardInfo};
use crate::suite::Suite;

fn env_number(var: &str) -> Result<Option<u32>> {
    match std::env::var(var) {
        Ok(v) => v
            .trim()
            .parse()
            .map(Some)
            .with_context(|| format!("--shard: {var}={v:?} is not a whole number")),
        Err(_) => Ok(None),
    }
}

/// The piece this process runs, from the flag and, where it says so, the environment.
pub(super) fn resolve(spec: &ShardSpec) -> Result<Shard> {
    let (index, count) = match spec {
        ShardSpec::Fixed { index, count } => (*index, *count),
        ShardSpec::Env { var, count } => {
            let Some(index) = env_number(var)? else {
                bail!("--shard {var}/{count}: the environment variable {var} is not set");
            };
            (index, *count)
        }
        ShardSpec::Slurm => {
            let (Some(id), Some(count)) = (
                env_number("SLURM_ARRAY_TASK_ID")?,
                env_number("SLURM_ARRAY_TASK_COUNT")?,
            ) else {
                bail!(
                    "--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set; submit with sbatch --array=0-N, or give --shard K/N"
                );
            };
            let min = env_number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            (id.saturating_sub(min), count)
        }
    };
    if count == 0 || index >= count {
        bail!(
            "--shard: piece {index} of {count} does not exist (pieces count from 0 to N-1; a Slurm array with a step such as 0-6:2 is not supported)"
        );
    }
    Ok(Shard { index, count })
}

/// Each cell's measured time (warm-up and measured runs, ns) in an earlier run.
fn history(path: &Path) -> Result<HashMap<String, u64>> {
    let r = results::read(path).with_context(|| format!("--shard-history {}", path.display()))?;
    Ok(r.cells
        .iter()
        .map(|c| {
            let ns = c.warmup_wall_ns.iter().sum::<u64>() + c.samples.wall_ns.iter().sum::<u64>();
            (c.id.clone(), ns)
        })
        .filter(|(_, ns)| *ns > 0)
        .collect())
}

/// The plan narrowed to this piece, and what the document records of the split.
pub(super) fn narrow(
    suite: &Suite,
    plan: &Plan,
    spec: &ShardSpec,
    history_file: Option<&Path>,
) -> Result<(Plan, ShardInfo)> {
    let me = resolve(spec)?;
    let history = history_file.map(history).transpose()?.unwrap_or_default();
    let split = plan::split(suite, plan, me.count, &history);
    let mine = split.groups_of(me.index);
    let key = |gi: usize| {
        let g = &plan.groups[gi];
        results::group_key(&suite.operations[g.operation].name, &g.params)
    };
    let info = ShardInfo {
        index: me.index,
        count: me.count,
        basis: split.basis.name().into(),
        cost_share: split.cost_share(me.index),
        groups: mine.iter().map(|&gi| key(gi)).collect(),
        plan: (0..plan.groups.len()).map(key).collect(),
    };
    // A point's groups are adjacent in plan order, so dedup leaves each point once.
    let mut points: Vec<String> = mine.iter().map(|&gi| params_key(&plan.groups[gi].params)).collect();
    points.dedup();
    tell!(
        "shard {}/{}: {} of {} groups ({:.0}% of the estimated cost, by {}): {}",
        me.index,
        me.count,
        mine.len(),
        plan.groups.len(),
        info.cost_share * 100.0,
        info.basis,
        if points.is_empty() {
            "nothing to run".to_string()
        } else {
            points.join("; ")
        }
    );
    Ok((plan::narrow(plan, &mine), info))
}

/// The default folder of a piece, beside the others: `<default>/shard-K-of-N`.
pub(super) fn default_folder(base: PathBuf, info: &ShardInfo) -> PathBuf {
    base.join(format!("shard-{}-of-{}", info.index, info.count))
}

/// A piece as named on the command line: a results file, or a folder holding one.
fn read_piece(path: &Path) -> Result<Input> {
    let file = if path.is_dir() {
        path.join("results.json")
    } else {
        path.to_path_buf()
    };
    let results = results::read(&file)?;
    Ok(Input {
        file: file.display().to_string(),
        results,
    })
}

pub fn merge(args: MergeArgs) -> Result<ExitCode> {
    let inputs = args.pieces.iter().map(|p| read_piece(p)).collect::<Result<Vec<_>>>()?;
    let mut merged = merge::merge(inputs, args.partial, crate::session::command_line())?;
    // Held to the end: no other versus writes into the folder meanwhile.
    let _claim = crate::session::claim(&args.out, "--out")?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let suite_hash = merged.suite.hash.clone().unwrap_or_default();
    let recording = super::recording::start(
        &args.record,
        &cwd,
        &crate::history::Outside::Here,
        &mut merged,
        suite_hash,
        "merge",
    );
    let results_path = args.out.join("results.json");
    let report = args.out.join("report.md");
    let outputs = Outputs {
        json: Some(results_path.clone()),
        markdown: std::iter::once(report.clone()).chain(args.markdown.clone()).collect(),
        html: std::iter::once(args.out.join("report.html"))
            .chain(args.html.clone())
            .collect(),
        ..Default::default()
    };
    report::write(&merged, &outputs, None)?;
    super::say(&terminal::summary_with(&merged, false, terminal::Layout::stdout(false)));
    super::say(&format!(
        "\nResults: {}\nReport:  {}\n",
        results_path.display(),
        report.display()
    ));
    // The results are on disk: only now may the store fail the merge.
    let status = status(&merged);
    super::recording::finish_from_file(recording, &merged, &results_path, status)?;
    Ok(ExitCode::from(status))
}

fn status(merged: &Results) -> u8 {
    let missing = merged.merge.as_ref().is_some_and(|m| !m.missing.is_empty());
    if missing {
        tell!(
            "partial merge: {} group(s) missing (see the report's warnings)",
            merged.merge.as_ref().map_or(0, |m| m.missing.len())
        );
        exit::PARTIAL
    } else if merged.cells.iter().any(|c| c.outcome.is_failure()) {
        exit::NOT_OK
    } else {
        exit::OK
    }
}
