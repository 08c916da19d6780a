//! The subcommands as pipelines: flags → suite and plan → a session → the
//! outputs. Everything with an idea of its own lives in the layers below;
//! this is glue.

/// `println!` through `say`: stops quietly when the reader went away.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::app::say(&format!("{}\n", format_args!($($arg)*)))
    };
}

mod adhoc;
pub mod bisect;
pub mod history;
pub mod history_cmd;
pub mod import;
mod params;
mod report;
mod revisions;
mod shards;
pub mod trend;

pub use report::report;
pub use shards::merge;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indexmap::IndexMap;

use crate::analysis;
use crate::cli::{ColorChoice, Common, ExecArgs, RunArgs, SortOrder, Style, TimeUnit};
use crate::exec::helper::HelperExecutor;
use crate::exec::{ProcessExecutor, interrupt};
use crate::exit;
use crate::history::Document;
use crate::plan::{self, Sampling, Selection};
use crate::report::files::{self, Outputs};
use crate::report::{markdown, tables, terminal};
use crate::results::{self, Journal, Recovered, Results, Warning};
use crate::runner::End;
use crate::session::{Checkpoint, Session, preflight, resume};
use crate::suite;
use crate::units::{self, parse_duration};

/// Writes to standard output. A reader that went away (`versus schema |
/// head`) is not an error: what it did not read it did not want.
pub(crate) fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A duration flag's value: parsed, and more than zero.
fn positive_duration(flag: &str, text: &str) -> Result<std::time::Duration> {
    let d = parse_duration(text).with_context(|| flag.to_string())?;
    if d.is_zero() {
        bail!("{flag} {text}: must be more than zero");
    }
    Ok(d)
}

fn selection(common: &Common, only: Vec<String>) -> Result<Selection> {
    let timeout = common
        .timeout
        .as_deref()
        .map(|t| positive_duration("--timeout", t))
        .transpose()?;
    let max_time = positive_duration("--max-time", &common.max_time)?;
    let sampling = match (common.precision, common.resolve) {
        (Some(precision), _) => Sampling::Precision {
            precision,
            max_runs: common.max_runs,
            max_time,
        },
        (None, Some(band)) => Sampling::Resolve {
            band,
            max_runs: common.max_runs,
            max_time,
        },
        (None, None) => Sampling::Fixed,
    };
    Ok(Selection {
        only,
        runs: common.runs,
        passes: common.passes,
        forks: common.forks,
        order: common.order,
        warmup: common.warmup,
        timeout,
        sampling,
        measure: common
            .measure
            .as_deref()
            .map(crate::suite::parse_measure)
            .transpose()
            .map_err(|e| anyhow::anyhow!("--measure: {e}"))?,
        counted_runs: common.counted_runs,
    })
}

/// A folder name from a suite's title: letters, digits, '.', '_' and '-'
/// kept, every other run of characters one '-' ("Quickstart: gzip vs xz" →
/// "Quickstart-gzip-vs-xz").
pub(crate) fn folder_name(title: &str) -> String {
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
    interrupt::install();
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
        preflight::check_baseline(&suite, &b)?;
        suite.baseline = Some(b);
    }
    preflight::check_programs(&suite)?;
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
    let (out_dir, recovered) = output_folder(&args, &suite.name, shard.as_ref())?;
    let revisions = revisions::build(
        &mut suite,
        &plan,
        revision_infos,
        &out_dir.join("builds"),
        args.common.quiet,
    );
    let mut warnings = journal_warnings(&recovered);
    let resumed = resume::split(recovered.cells);
    if let Some(message) = resume::notice(&resumed) {
        eprintln!("resuming: {message}");
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
    };
    let (mut results, end) = run_session(session, args.common.quiet)?;
    let suite_hash = results
        .suite
        .hash
        .clone()
        .unwrap_or_else(|| crate::history::context::hash(&fs::read(&args.suite).unwrap_or_default()));
    let recording = history::start(
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
    files::write(&results, &outputs, None)?;
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
        eprintln!(
            "interrupted: the finished cells are saved; continue with --resume {}",
            out_dir.display()
        );
    } else if let Some(hint) = resume::hint(&results, &out_dir) {
        eprintln!("{hint}");
    }
    // The results are on disk: only now may the store fail the run.
    let status = exit::status_of_run(&results, &end);
    let status = revisions::finish(&results, &args.revisions, status, end == End::Interrupted)?;
    history::finish_from_file(recording, &results, &results_path, status)?;
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
    eprintln!("note: {message}");
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
    eprintln!("warning: {message}");
    vec![Warning {
        kind: "journal_repaired".into(),
        message,
    }]
}

/// The run's folder (absolute: commands run in the suite's folder) and the
/// cells an earlier run finished there, for `--resume`.
fn output_folder(args: &RunArgs, suite_name: &str, shard: Option<&results::ShardInfo>) -> Result<(PathBuf, Recovered)> {
    let (dir, resume) = match &args.resume {
        Some(dir) => {
            let journal = dir.join("cells.jsonl");
            if !journal.is_file() {
                bail!("--resume {}: no cells.jsonl there; nothing to resume", dir.display());
            }
            (dir.clone(), Journal::recover(&journal)?)
        }
        None => {
            let mut default = PathBuf::from("versus-results").join(folder_name(suite_name));
            if let Some(info) = shard {
                default = shards::default_folder(default, info);
            }
            (args.out.clone().unwrap_or(default), Recovered::default())
        }
    };
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = fs::canonicalize(&dir).with_context(|| format!("cannot resolve {}", dir.display()))?;
    Ok((dir, resume))
}

pub fn exec(args: ExecArgs) -> Result<ExitCode> {
    let mut suite = adhoc::suite(&args)?;
    let revision_infos = revisions::expand(&mut suite, &args.revisions)?;
    let mut sel = selection(&args.common, vec![])?;
    if let Some(n) = args.min_runs {
        sel.runs = Some(n);
        sel.sampling = Sampling::MinTime {
            min_time: HYPERFINE_MIN_TIME,
            max_runs: args.common.max_runs,
        };
    }
    let plan = plan::build(&suite, &sel)?;
    if let Some(unit) = args.time_unit {
        units::set_time_unit(match unit {
            TimeUnit::Microsecond => units::TimeUnit::Microsecond,
            TimeUnit::Millisecond => units::TimeUnit::Millisecond,
            TimeUnit::Second => units::TimeUnit::Second,
        });
    }
    let scratch = tempfile::Builder::new().prefix("versus-exec-").tempdir()?;
    let quiet = args.common.quiet || matches!(args.style, Style::Basic | Style::Color | Style::None);
    let revisions = revisions::build(&mut suite, &plan, revision_infos, scratch.path(), quiet);
    let session = Session {
        suite: &suite,
        plan: &plan,
        dir: scratch.path(),
        resume: IndexMap::new(),
        warnings: vec![],
        checkpoint: None,
        noise: args
            .common
            .resolve
            .or(suite.settings.resolve)
            .unwrap_or(args.common.noise),
        shard: None,
        revisions,
    };
    let (mut results, end) = run_session(session, quiet)?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    // Ad-hoc runs share one title: their commands say which runs are the same.
    let commands = crate::history::context::hash(args.commands.join("\0").as_bytes());
    results.suite.hash = Some(commands.clone());
    let recording = history::start(
        &args.record,
        &cwd,
        &crate::history::Outside::user_data(),
        &mut results,
        commands,
        "exec",
    );
    files::write(
        &results,
        &Outputs {
            json: args.json.clone(),
            hyperfine: args.export_json.clone(),
            ..Default::default()
        },
        None,
    )?;
    if args.export_json.is_some() {
        let left_out = crate::report::hyperfine::left_out(&results);
        if !left_out.is_empty() {
            eprintln!(
                "--export-json: left out {} that did not end ok (hyperfine's format has no place for an outcome): {}",
                left_out.len(),
                left_out.join(", ")
            );
        }
    }
    // Recorded in the order measured; sorting is for display. Only made
    // when recording, and compressed as it is serialised: for 100,000 runs
    // the text would be megabytes.
    let document = match &recording {
        Some(r) => Some(Document::from_results(&results, r.packing())?),
        None => None,
    };
    if args.sort == SortOrder::MeanTime {
        sort_by_time(&mut results);
    }
    let outputs = Outputs {
        markdown: args.markdown.iter().cloned().collect(),
        csv: args.csv.clone(),
        asciidoc: args.export_asciidoc.clone(),
        ..Default::default()
    };
    files::write(&results, &outputs, None)?;
    if args.style != Style::None {
        let summary = summary(&results, args.common.verbose, colour(args.common.color, args.style));
        // With `--json -` standard output is the results document.
        if args.json.as_deref() == Some(Path::new("-")) {
            eprint!("{summary}");
        } else {
            say(&summary);
        }
    }
    let status = exit::status_of_run(&results, &end);
    let status = revisions::finish(&results, &args.revisions, status, end == End::Interrupted)?;
    if let Some(document) = document {
        history::finish(recording, &results, &document, status)?;
    }
    Ok(ExitCode::from(status))
}

/// The end-of-run summary at the terminal's width (stdout's, else 100
/// columns), coloured as `colour` says.
fn summary(results: &Results, verbose: bool, colour: bool) -> String {
    terminal::summary_with(results, verbose, terminal::Layout::stdout(colour))
}

/// Whether to colour: `--color` when given, else `exec --style color/nocolor/basic`,
/// else colour when standard output is a terminal and `NO_COLOR` is unset or empty.
fn colour(choice: ColorChoice, style: Style) -> bool {
    let auto = || {
        std::io::IsTerminal::is_terminal(&std::io::stdout())
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
    };
    match (choice, style) {
        (ColorChoice::Always, _) => true,
        (ColorChoice::Never, _) => false,
        (ColorChoice::Auto, Style::Color) => true,
        (ColorChoice::Auto, Style::Nocolor | Style::Basic) => false,
        (ColorChoice::Auto, _) => auto(),
    }
}

/// hyperfine's least time of measured runs per command, for `--min-runs`.
const HYPERFINE_MIN_TIME: Duration = Duration::from_secs(3);

/// `--sort mean-time`: the implementations' order becomes fastest first (by
/// the mean over their cells of the median time), for the summary and exports.
fn sort_by_time(results: &mut Results) {
    let mean_median = |name: &str| {
        let medians: Vec<f64> = results
            .cells
            .iter()
            .filter(|c| c.implementation == name)
            .filter_map(|c| c.stats.as_ref().map(|s| s.median_ns))
            .collect();
        if medians.is_empty() {
            f64::INFINITY
        } else {
            medians.iter().sum::<f64>() / medians.len() as f64
        }
    };
    let mut order: Vec<(f64, String)> = tables::implementations(results)
        .into_iter()
        .map(|n| (mean_median(&n), n))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let imps = &mut results.environment.implementations;
    for (i, (_, name)) in order.iter().enumerate() {
        if let Some(from) = imps.get_index_of(name) {
            imps.move_index(from, i.min(imps.len() - 1));
        }
    }
    // Cells keep their group order; within a group they follow the new order.
    let mut groups: Vec<String> = Vec::new();
    for c in &results.cells {
        let g = format!("{}/{}", c.operation, plan::params_key(&c.params));
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    results.cells.sort_by_key(|c| {
        let g = format!("{}/{}", c.operation, plan::params_key(&c.params));
        let imp = order.iter().position(|(_, n)| *n == c.implementation);
        (groups.iter().position(|x| *x == g), imp)
    });
}

/// The outputs in other tools' formats that `--hyperfine` and friends ask for.
pub(crate) fn exports(e: &crate::cli::Exports) -> Outputs {
    Outputs {
        hyperfine: e.hyperfine.clone(),
        pyperf: e.pyperf.clone(),
        go_bench: e.go_bench.clone(),
        github_action: e.github_action.clone(),
        ..Default::default()
    }
}

pub fn diff(args: crate::cli::DiffArgs) -> Result<ExitCode> {
    let mut old = history::load(&args.old, &args.store)?;
    let mut new = history::load(&args.new, &args.store)?;
    let machines = crate::diff::machine_differences(&old, &new);
    if !machines.is_empty() && !args.allow_different_machines {
        bail!(
            "{} and {} were measured on different machines ({}); timings do not compare. Pass --allow-different-machines to compare anyway",
            args.old,
            args.new,
            machines.join("; ")
        );
    }
    // Recompute with this versus, so both sides are analysed the same way.
    analysis::analyze(&mut old, &[]);
    analysis::analyze(&mut new, &[]);
    let noise = history::diff_noise(&args.store, &old, &new);
    let d = crate::diff::diff(&old, &new, args.metric, &noise);
    if d.rows.is_empty() {
        bail!(
            "{} and {} have no cell in common (cells are matched by id: operation/implementation/parameters)",
            args.old,
            args.new
        );
    }
    let table = crate::report::since::diff_table(&d, new.analysis.for_metric(args.metric).noise);
    say(&terminal::render_table_with(
        &table,
        terminal::Layout::stdout(colour(args.color, Style::Auto)),
    ));
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
        notes.push(format!("only in {}: {}", args.old, d.only_old.join(", ")));
    }
    if !d.only_new.is_empty() {
        notes.push(format!("only in {}: {}", args.new, d.only_new.join(", ")));
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
            None => say(&format!("ok    {}\n", r.name)),
            Some(f) => say(&format!("FAIL  {} — {}\n      {f}\n", r.name, r.description)),
        }
    }
    say(&format!(
        "conformance: {} passed, {failed} failed\n",
        results.len() - failed
    ));
    Ok(ExitCode::from(if failed == 0 { exit::OK } else { exit::NOT_OK }))
}

pub fn schema() -> Result<ExitCode> {
    say(&format!("{}\n", serde_json::to_string_pretty(&suite::json_schema())?));
    Ok(ExitCode::from(exit::OK))
}

/// `versus completions SHELL`: generated from the flag definitions in cli.rs.
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    use clap::CommandFactory;
    // Into memory first: the generator panics on a write error, such as a closed pipe.
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut crate::cli::Cli::command(), "versus", &mut text);
    say(&String::from_utf8_lossy(&text));
    Ok(ExitCode::from(exit::OK))
}

/// `versus man`: the man page, generated from the flag definitions in cli.rs.
pub fn man() -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut text = Vec::new();
    clap_mangen::Man::new(crate::cli::Cli::command()).render(&mut text)?;
    say(&String::from_utf8_lossy(&text));
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
