//! `versus run`: the suite file and flags → a plan → a session (resumed, sharded or
//! whole) → results, history and reports.

use super::*;
use crate::app::cli::{RunArgs, Style};
use crate::exec::ProcessExecutor;
use crate::exec::helper::HelperExecutor;
use crate::plan::{self};
use crate::report::formats::terminal;
use crate::report::{self, Outputs};
use crate::results::{self, Journal, Recovered, Results, Warning};
use crate::runner::End;
use crate::session::{self, Claim};
use crate::session::{Checkpoint, Session};
use crate::suite;
use anyhow::{Result, bail};
use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs a session of `plan` with the real executor and the terminal's progress.
pub(super) fn run_session(session: Session, quiet: bool) -> Result<(Results, End)> {
    let _guard = crate::exec::guard::start();
    let mut exec = HelperExecutor::new(ProcessExecutor::new());
    let mut progress = terminal::Progress::new(quiet);
    let out = session.run(&mut exec, &mut progress);
    progress.finish();
    out
}

/// The suite of `versus run`: loaded, its implementations at `--rev`'s
/// revisions, `--baseline` applied, its programs checked.
fn run_suite_file(args: &RunArgs) -> Result<(suite::Suite, Vec<results::RevisionInfo>)> {
    let mut suite = suite::load(&args.suite)?;
    let revision_infos = revisions::expand(&mut suite, &args.revisions)?;
    if let Some(b) = &args.baseline {
        let b = crate::revisions::column_name(&suite, b);
        session::check_baseline(&suite, &b)?;
        suite.baseline = Some(b);
    }
    session::check_programs(&suite)?;
    Ok((suite, revision_infos))
}

pub fn run_suite(args: RunArgs) -> Result<ExitCode> {
    let (mut suite, revision_infos) = run_suite_file(&args)?;
    let plan = plan::build(&suite, &selection(&args.common, args.only.clone())?)?;
    let (plan, shard) = match &args.shard {
        Some(spec) => {
            let (plan, info) = shards::narrow(&suite, &plan, spec, args.shard_history.as_deref())?;
            (plan, Some(info))
        }
        None => (plan, None),
    };
    let baseline_note = baseline_in_plan(&mut suite, &plan, args.baseline.is_some())?;
    // Held to the end: no other versus writes into the folder meanwhile.
    let (claim, recovered) = output_folder(&args, &suite.name, shard.as_ref())?;
    let out_dir = claim.dir.clone();
    let revisions = revisions::build(
        &mut suite,
        &plan,
        revision_infos,
        &out_dir.join("builds"),
        args.common.quiet,
    );
    let mut warnings = journal_warnings(&recovered);
    let resumed = session::split_resumed(recovered.cells);
    if let Some(message) = session::resume_notice(&resumed) {
        tell!("resuming: {message}");
        warnings.push(Warning {
            kind: "measured_again".into(),
            message,
        });
    }
    warnings.extend(baseline_note);
    let journal_path = out_dir.join("cells.jsonl");
    if args.resume.is_none() {
        let _ = fs::remove_file(&journal_path);
    }
    let results_path = out_dir.join("results.json");
    let session = Session {
        suite: &suite,
        plan: &plan,
        dir: &out_dir,
        resume: resumed.keep,
        warnings,
        checkpoint: Some(Checkpoint {
            journal: Journal::open(&journal_path)?,
        }),
        noise: args
            .common
            .resolve
            .or(suite.settings.resolve)
            .unwrap_or(args.common.noise),
        shard,
        revisions,
        cache: crate::payload::cache_dir(),
    };
    let (mut results, end) = run_session(session, args.common.quiet)?;
    let suite_hash = results
        .suite
        .hash
        .clone()
        .unwrap_or_else(|| crate::base::digest::sha256_hex(&fs::read(&args.suite).unwrap_or_default()));
    let recording = recording::start(
        &args.record,
        &suite.dir,
        &crate::history::Outside::Here,
        &mut results,
        suite_hash,
        "run",
    );
    let report = out_dir.join("report.md");
    let outputs = Outputs {
        json: Some(results_path.clone()),
        markdown: std::iter::once(report.clone()).chain(args.markdown.clone()).collect(),
        html: std::iter::once(out_dir.join("report.html"))
            .chain(args.html.clone())
            .collect(),
        ..exports(&args.exports)
    };
    let notes = super::notes::find(None, &results, &outputs)?;
    report::write(&results, &outputs, notes.as_deref())?;
    say(&summary(
        &results,
        args.common.verbose,
        colour(args.common.color, Style::Auto),
    ));
    say(&format!(
        "\nResults: {}\nReport:  {}\n",
        results_path.display(),
        report.display()
    ));
    if end == End::Interrupted {
        tell!(
            "interrupted: the finished cells are saved; continue with --resume {}",
            out_dir.display()
        );
    } else if let Some(hint) = session::resume_hint(&results, &out_dir) {
        tell!("{hint}");
    }
    // The results are on disk: only now may the store fail the run.
    let status = exit::status_of_run(&results, &end);
    let status = revisions::finish(&results, &args.revisions, status, end == End::Interrupted)?;
    recording::finish_from_file(recording, &results, &results_path, status)?;
    Ok(ExitCode::from(status))
}

/// The suite's baseline when `--only` left it out: the first implementation
/// the plan runs takes its place, said at once and kept in the report as a
/// warning (ratios against nothing would fill the tables with "—"). A
/// `--baseline` flag that `--only` left out is an error: the two flags disagree.
fn baseline_in_plan(suite: &mut suite::Suite, plan: &plan::Plan, from_flag: bool) -> Result<Option<Warning>> {
    let Some(named) = suite.baseline.clone() else {
        return Ok(None);
    };
    let runs = |i: &usize| plan.groups.iter().any(|g| g.implementations.contains(i));
    let planned: Vec<usize> = (0..suite.implementations.len()).filter(runs).collect();
    if planned.iter().any(|&i| suite.implementations[i].name == named) {
        return Ok(None);
    }
    if from_flag {
        bail!("--baseline {named}: --only leaves it out of this run; name one of the implementations --only keeps");
    }
    let Some(&first) = planned.first() else { return Ok(None) };
    let stand_in = suite.implementations[first].name.clone();
    let message = format!(
        "the suite's baseline {named} is not in this run (--only): ratios are against {stand_in}, the first implementation that ran; pass --baseline to choose another"
    );
    tell!("note: {message}");
    suite.baseline = Some(stand_in);
    Ok(Some(Warning {
        kind: "baseline_not_run".into(),
        message,
    }))
}

/// A journal repaired on `--resume` is said at once and kept in the report.
fn journal_warnings(recovered: &Recovered) -> Vec<Warning> {
    let (Some(torn), bytes) = (&recovered.set_aside, recovered.unreadable_bytes) else {
        return vec![];
    };
    let message = format!(
        "the journal's last {bytes} bytes could not be read (a write cut short) and were set aside in {}; the groups they held are measured again",
        torn.display()
    );
    tell!("warning: {message}");
    vec![Warning {
        kind: "journal_repaired".into(),
        message,
    }]
}

/// The run's folder, claimed for this run (absolute: commands run in the
/// suite's folder; see `session::folder`), and the cells an earlier run
/// finished there, for `--resume`.
fn output_folder(args: &RunArgs, suite_name: &str, shard: Option<&results::ShardInfo>) -> Result<(Claim, Recovered)> {
    if let Some(dir) = &args.resume {
        if !dir.is_dir() {
            bail!(
                "--resume {}: no such folder, so nothing to resume; a run starts with --out",
                dir.display()
            );
        }
        let claim = session::claim(dir, "--resume")?;
        let journal = claim.dir.join("cells.jsonl");
        // A run stopped before it recorded a group (or made its journal)
        // left nothing to keep: this one measures every group.
        let recovered = if journal.is_file() {
            Journal::recover(&journal)?
        } else {
            Recovered::default()
        };
        if recovered.cells.is_empty() {
            tell!(
                "resuming: no group is recorded in {} yet; every group is measured",
                claim.dir.display()
            );
        }
        return Ok((claim, recovered));
    }
    let mut default = PathBuf::from("versus-results").join(crate::base::folder::for_title(suite_name));
    if let Some(info) = shard {
        default = shards::default_folder(default, info);
    }
    let claim = session::claim(args.out.as_ref().unwrap_or(&default), "--out")?;
    Ok((claim, Recovered::default()))
}
