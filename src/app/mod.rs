//! The subcommands as pipelines: flags → suite and plan → a session → the
//! outputs. Everything with an idea of its own lives in the layers below;
//! this is glue.

mod adhoc;
mod shards;

pub use shards::merge;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use indexmap::IndexMap;

use crate::analysis;
use crate::cli::{Common, ExecArgs, RunArgs, Warmup};
use crate::exec::helper::HelperExecutor;
use crate::exec::{ProcessExecutor, interrupt};
use crate::exit;
use crate::plan::{self, Sampling, Selection};
use crate::report::files::{self, Outputs};
use crate::report::{markdown, terminal};
use crate::results::{self, Journal, Results};
use crate::runner::End;
use crate::session::{Checkpoint, Session, preflight};
use crate::suite;
use crate::units::parse_duration;

fn selection(common: &Common, only: Vec<String>) -> Result<Selection> {
    let timeout = common
        .timeout
        .as_deref()
        .map(|t| parse_duration(t).with_context(|| "--timeout".to_string()))
        .transpose()?;
    let max_time = parse_duration(&common.max_time).with_context(|| "--max-time".to_string())?;
    let sampling = match common.precision {
        Some(precision) => Sampling::Precision {
            precision,
            max_runs: common.max_runs,
            max_time,
        },
        None => Sampling::Fixed,
    };
    Ok(Selection {
        only,
        runs: common.runs,
        warmup: match common.warmup {
            Some(Warmup::Runs(n)) => Some(n),
            _ => None,
        },
        warmup_auto: common.warmup == Some(Warmup::Auto),
        timeout,
        sampling,
    })
}

/// A folder name from a suite's title: letters, digits, '.', '_' and '-'
/// kept, every other run of characters one '-' ("Quickstart: gzip vs xz" →
/// "Quickstart-gzip-vs-xz").
fn folder_name(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches(['-', '.']);
    if trimmed.is_empty() {
        "suite".into()
    } else {
        trimmed.to_string()
    }
}

/// Runs a session of `plan` with the real executor and the terminal's progress.
fn run_session(session: Session, quiet: bool) -> Result<(Results, End)> {
    // A second handler cannot be installed (tests may call twice); the first one stays.
    let _ = ctrlc::set_handler(interrupt::interrupt);
    let mut exec = HelperExecutor::new(ProcessExecutor::new());
    let mut progress = terminal::Progress::new(quiet);
    let out = session.run(&mut exec, &mut progress);
    progress.finish();
    out
}

pub fn run_suite(args: RunArgs) -> Result<ExitCode> {
    let mut suite = suite::load(&args.suite)?;
    if let Some(b) = &args.baseline {
        preflight::check_baseline(&suite, b)?;
        suite.baseline = Some(b.clone());
    }
    preflight::check_programs(&suite)?;
    let plan = plan::build(&suite, &selection(&args.common, args.only.clone())?)?;
    let (plan, shard) = match &args.shard {
        Some(spec) => {
            let (plan, info) = shards::narrow(&suite, &plan, spec, args.shard_history.as_deref())?;
            (plan, Some(info))
        }
        None => (plan, None),
    };
    let (out_dir, resume) = output_folder(&args, &suite.name, shard.as_ref())?;
    let journal_path = out_dir.join("cells.jsonl");
    if args.resume.is_none() {
        let _ = fs::remove_file(&journal_path);
    }
    let results_path = out_dir.join("results.json");
    let session = Session {
        suite: &suite,
        plan: &plan,
        dir: &out_dir,
        resume,
        checkpoint: Some(Checkpoint {
            journal: Journal::open(&journal_path)?,
            results_path: results_path.clone(),
        }),
        noise: args.common.noise,
        shard,
    };
    let (results, end) = run_session(session, args.common.quiet)?;
    let report = out_dir.join("report.md");
    let outputs = Outputs {
        json: Some(results_path.clone()),
        markdown: std::iter::once(report.clone()).chain(args.markdown.clone()).collect(),
        html: std::iter::once(out_dir.join("report.html"))
            .chain(args.html.clone())
            .collect(),
        ..Default::default()
    };
    files::write(&results, &outputs, None)?;
    print!("{}", terminal::summary(&results));
    println!("\nResults: {}\nReport:  {}", results_path.display(), report.display());
    if end == End::Interrupted {
        eprintln!(
            "interrupted: the finished cells are saved; continue with --resume {}",
            out_dir.display()
        );
    }
    Ok(exit::of_run(&results, &end))
}

/// The run's folder (absolute: commands run in the suite's folder) and the
/// cells an earlier run finished there, for `--resume`.
fn output_folder(
    args: &RunArgs,
    suite_name: &str,
    shard: Option<&results::ShardInfo>,
) -> Result<(PathBuf, IndexMap<String, results::Cell>)> {
    let (dir, resume) = match &args.resume {
        Some(dir) => {
            let journal = dir.join("cells.jsonl");
            if !journal.is_file() {
                bail!("--resume {}: no cells.jsonl there; nothing to resume", dir.display());
            }
            (dir.clone(), Journal::read(&journal)?)
        }
        None => {
            let mut default = PathBuf::from("versus-results").join(folder_name(suite_name));
            if let Some(info) = shard {
                default = shards::default_folder(default, info);
            }
            (args.out.clone().unwrap_or(default), IndexMap::new())
        }
    };
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = fs::canonicalize(&dir).with_context(|| format!("cannot resolve {}", dir.display()))?;
    Ok((dir, resume))
}

pub fn exec(args: ExecArgs) -> Result<ExitCode> {
    let suite = adhoc::suite(&args)?;
    let plan = plan::build(&suite, &selection(&args.common, vec![])?)?;
    let scratch = tempfile::Builder::new().prefix("versus-exec-").tempdir()?;
    let session = Session {
        suite: &suite,
        plan: &plan,
        dir: scratch.path(),
        resume: IndexMap::new(),
        checkpoint: None,
        noise: args.common.noise,
        shard: None,
    };
    let (results, end) = run_session(session, args.common.quiet)?;
    let outputs = Outputs {
        json: args.json.clone(),
        markdown: args.markdown.iter().cloned().collect(),
        ..Default::default()
    };
    files::write(&results, &outputs, None)?;
    print!("{}", terminal::summary(&results));
    Ok(exit::of_run(&results, &end))
}

pub fn report(args: crate::cli::ReportArgs) -> Result<ExitCode> {
    let results = results::read(&args.results)?;
    let outputs = Outputs {
        html: args.html.iter().cloned().collect(),
        markdown: args.markdown.iter().cloned().collect(),
        csv: args.csv.clone(),
        bmf: args.bmf.clone(),
        json: None,
    };
    if outputs.is_empty() {
        bail!("nothing to write: give at least one of --html, --markdown, --csv, --bmf");
    }
    let notes = match &args.notes {
        Some(p) => Some(fs::read_to_string(p).with_context(|| format!("--notes {}: cannot read it", p.display()))?),
        None => None,
    };
    files::write(&results, &outputs, notes.as_deref())?;
    Ok(ExitCode::from(exit::OK))
}

pub fn diff(args: crate::cli::DiffArgs) -> Result<ExitCode> {
    let mut old = results::read(&args.old)?;
    let mut new = results::read(&args.new)?;
    let machines = crate::diff::machine_differences(&old, &new);
    if !machines.is_empty() && !args.allow_different_machines {
        bail!(
            "{} and {} were measured on different machines ({}); timings do not compare. Pass --allow-different-machines to compare anyway",
            args.old.display(),
            args.new.display(),
            machines.join("; ")
        );
    }
    // Recompute with this versus, so both sides are analysed the same way.
    analysis::analyze(&mut old, &[]);
    analysis::analyze(&mut new, &[]);
    let d = crate::diff::diff(&old, &new);
    if d.rows.is_empty() {
        bail!(
            "{} and {} have no cell in common (cells are matched by id: operation/implementation/parameters)",
            args.old.display(),
            args.new.display()
        );
    }
    let table = crate::report::tables::diff_table(&d);
    print!("{}", terminal::render_table(&table));
    let mut notes = Vec::new();
    if !machines.is_empty() {
        notes.push(format!("WARNING: different machines: {}", machines.join("; ")));
    }
    if !d.version_changes.is_empty() {
        notes.push(format!(
            "WARNING: versions changed between the runs: {}",
            d.version_changes.join("; ")
        ));
    }
    if !d.only_old.is_empty() {
        notes.push(format!("only in {}: {}", args.old.display(), d.only_old.join(", ")));
    }
    if !d.only_new.is_empty() {
        notes.push(format!("only in {}: {}", args.new.display(), d.only_new.join(", ")));
    }
    for n in &notes {
        eprintln!("{n}");
    }
    if let Some(p) = &args.markdown {
        fs::write(p, markdown::render_diff(&table, &notes)).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(t) = args.fail_above {
        let bad = crate::diff::regressions(&d, t);
        if !bad.is_empty() {
            eprintln!(
                "{} cell(s) slower by more than {:.1}%: {}",
                bad.len(),
                t * 100.0,
                bad.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
            );
            return Ok(ExitCode::from(exit::REGRESSION));
        }
    }
    Ok(ExitCode::from(exit::OK))
}

pub fn conformance(args: crate::cli::ConformanceArgs) -> Result<ExitCode> {
    use crate::worker::conformance;
    let mut scenarios = conformance::load(args.scenarios.as_deref()).with_context(|| {
        format!(
            "--scenarios {}",
            args.scenarios.as_deref().unwrap_or(Path::new("")).display()
        )
    })?;
    if let Some(bad) = args.only.iter().find(|n| !scenarios.iter().any(|(s, _)| s == *n)) {
        bail!(
            "--only {bad}: no such scenario (known: {})",
            scenarios.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    if !args.only.is_empty() {
        scenarios.retain(|(n, _)| args.only.contains(n));
    }
    let scratch = tempfile::Builder::new().prefix("versus-conformance-").tempdir()?;
    let results = conformance::run(&args.command, &scenarios, scratch.path())?;
    let failed = results.iter().filter(|r| r.failure.is_some()).count();
    for r in &results {
        match &r.failure {
            None => println!("ok    {}", r.name),
            Some(f) => println!(
                "FAIL  {} — {}
      {f}",
                r.name, r.description
            ),
        }
    }
    println!("conformance: {} passed, {failed} failed", results.len() - failed);
    Ok(ExitCode::from(if failed == 0 { exit::OK } else { exit::NOT_OK }))
}

pub fn schema() -> Result<ExitCode> {
    println!("{}", serde_json::to_string_pretty(&suite::json_schema())?);
    Ok(ExitCode::from(exit::OK))
}

#[cfg(test)]
mod tests {
    use super::folder_name;

    #[test]
    fn folder_names_are_safe_and_readable() {
        assert_eq!(
            folder_name("Quickstart: gzip vs bzip2 vs xz"),
            "Quickstart-gzip-vs-bzip2-vs-xz"
        );
        assert_eq!(folder_name("../../etc"), "etc");
        assert_eq!(folder_name("a/b c"), "a-b-c");
        assert_eq!(folder_name("???"), "suite");
    }
}
