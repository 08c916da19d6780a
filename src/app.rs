//! The pipeline behind each subcommand: suite → plan → execution → analysis → reports.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use indexmap::IndexMap;

use crate::analysis;
use crate::cli::{Common, ExecArgs, RunArgs, Warmup};
use crate::environment;
use crate::exec::ProcessExecutor;
use crate::exec::service::Services;
use crate::placeholder::CommandTemplate;
use crate::plan::{self, Plan, Sampling, Selection, cell_id};
use crate::report::{markdown, terminal};
use crate::results::{
    self, AnalysisSettings, Cell, ImplementationInfo, Journal, Results, RunStatus, SuiteInfo, Warning,
};
use crate::runner::{End, Runner};
use crate::suite::{self, Implementation, Input, Operation, OutputMode, Suite};
use crate::units::parse_duration;

pub const EXIT_OK: u8 = 0;
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_NOT_OK: u8 = 3;
pub const EXIT_INTERRUPTED: u8 = 130;

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

/// Finds a program the way exec would: a path with a slash relative to `cwd`, else on PATH.
fn program_exists(program: &str, cwd: &Path, env: &[(String, String)]) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| p.is_file() && p.metadata().is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        return executable(&cwd.join(program));
    }
    let path = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var("PATH").ok())
        .unwrap_or_default();
    std::env::split_paths(&path).any(|d| executable(&d.join(program)))
}

/// Every command whose program is written literally must exist before anything runs.
fn check_programs(suite: &Suite) -> Result<()> {
    for imp in &suite.implementations {
        let cwd = imp.cwd.clone().unwrap_or_else(|| suite.dir.clone());
        if !cwd.is_dir() {
            bail!(
                "{}: implementations.{}.cwd: {} is not a directory",
                suite.path.display(),
                imp.name,
                cwd.display()
            );
        }
        let worker = imp.worker.iter().map(|w| ("worker".to_string(), w));
        let commands = suite
            .operations
            .iter()
            .zip(&imp.commands)
            .filter_map(|(op, c)| Some((format!("run.{}", op.name), c.as_ref()?)));
        for (key, cmd) in commands.chain(worker) {
            if let CommandTemplate::Words(words) = cmd {
                let first = words[0].to_string();
                if words[0].names().next().is_none() && !program_exists(&first, &cwd, &imp.env) {
                    bail!(
                        "{}: implementations.{}.{key}: program '{first}' not found ({}); install it or fix the command",
                        suite.path.display(),
                        imp.name,
                        if first.contains('/') {
                            format!("relative to {}", cwd.display())
                        } else {
                            "not on PATH".into()
                        }
                    );
                }
            }
        }
    }
    Ok(())
}

fn install_ctrlc() {
    // A second handler cannot be installed (tests may call twice); the first one stays.
    let _ = ctrlc::set_handler(crate::exec::process::interrupt);
}

fn exit_code(results: &Results, end: &End) -> ExitCode {
    if *end == End::Interrupted {
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    if results.cells.iter().any(|c| c.outcome.is_failure()) {
        ExitCode::from(EXIT_NOT_OK)
    } else {
        ExitCode::from(EXIT_OK)
    }
}

fn command_line() -> String {
    std::env::args()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 {
                "versus".to_string()
            } else {
                shell_words::quote(&a).into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Puts cells in plan order (group by group, implementations in suite order).
fn in_plan_order(suite: &Suite, plan: &Plan, cells: &IndexMap<String, Cell>) -> Vec<Cell> {
    let mut out = Vec::new();
    for g in &plan.groups {
        let op = &suite.operations[g.operation].name;
        for imp in &suite.implementations {
            if let Some(c) = cells.get(&cell_id(op, &imp.name, &g.params)) {
                out.push(c.clone());
            }
        }
    }
    out
}

struct Execution<'a> {
    suite: &'a Suite,
    plan: &'a Plan,
    out_dir: &'a Path,
    resume: IndexMap<String, Cell>,
    journal: Option<Journal>,
    results_path: Option<PathBuf>,
    quiet: bool,
    noise: f64,
}

impl Execution<'_> {
    /// Runs the plan; returns the analysed results and how it ended.
    fn go(mut self) -> Result<(Results, End)> {
        let suite = self.suite;
        let mut exec = ProcessExecutor::new();
        let mechanism = if suite.implementations.iter().any(|i| i.memory_limit.is_some()) {
            exec.memory_limit_mechanism()
        } else {
            "none needed (no memory_limit in the suite)"
        };
        let mut env = environment::collect(mechanism);
        let tmp = self.out_dir.join("tmp").display().to_string();
        for imp in &suite.implementations {
            // The placeholders of an implementation's own commands and files
            // (the suite allows no others there).
            let own = |n: &str| match n {
                "tmp" => Some(tmp.clone()),
                "impl" => Some(imp.name.clone()),
                _ => imp.vars.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()),
            };
            let version = imp.version.as_ref().map(|v| {
                let argv = v.render_with(own).unwrap_or_default();
                environment::version_of(&argv, imp.cwd.as_deref().unwrap_or(&suite.dir), &imp.env)
            });
            let artifact = imp.artifact.as_ref().map(|a| {
                let path = a.render_with(own).unwrap_or_default();
                let bytes = fs::metadata(imp.cwd.as_deref().unwrap_or(&suite.dir).join(&path))
                    .ok()
                    .map(|m| m.len());
                results::Artifact { path, bytes }
            });
            env.implementations.insert(
                imp.name.clone(),
                ImplementationInfo {
                    version,
                    note: imp.note.clone(),
                    artifact,
                },
            );
        }
        let mut results = Results {
            schema_version: results::SCHEMA_VERSION,
            suite: SuiteInfo {
                name: suite.name.clone(),
                description: suite.description.clone(),
                file: Some(suite.path.display().to_string()).filter(|p| !p.is_empty()),
                baseline: suite.baseline.clone(),
                command: command_line(),
            },
            started_at: results::now_rfc3339(),
            finished_at: None,
            status: RunStatus::Running,
            environment: env,
            analysis: AnalysisSettings {
                noise: self.noise,
                ..Default::default()
            },
            matrix: suite.matrix.clone(),
            operations: suite.operations.iter().map(|o| o.name.clone()).collect(),
            cells: vec![],
            comparisons: vec![],
            warnings: vec![],
        };

        let work = self.out_dir.join("work");
        let _ = fs::remove_dir_all(&work);
        let tmp = self.out_dir.join("tmp");
        fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut runner = Runner::new(suite, self.plan, work, tmp.clone(), crate::payload::cache_dir());
        runner.check_payloads()?;
        runner.done = self.resume.clone();

        install_ctrlc();
        let services = Services::start(&suite.services, &tmp, self.out_dir)?;
        let mut progress = terminal::Progress::new(self.quiet);
        runner.setup(&mut exec, &mut progress)?;
        let mut all: IndexMap<String, Cell> = self.resume.clone();
        let mut extra: Vec<Warning> = Vec::new();
        let end = {
            let results_ref = &mut results;
            let journal = &mut self.journal;
            let results_path = &self.results_path;
            let (plan, all_ref) = (self.plan, &mut all);
            let mut sink = |cells: &[Cell]| -> Result<()> {
                for c in cells {
                    if let Some(j) = journal.as_mut() {
                        j.append(c)?;
                    }
                    all_ref.insert(c.id.clone(), c.clone());
                }
                if let Some(path) = results_path {
                    results_ref.cells = in_plan_order(suite, plan, all_ref);
                    analysis::analyze(results_ref, &[]);
                    results::write_json_atomic(path, results_ref)?;
                }
                Ok(())
            };
            runner.run(&mut exec, &mut progress, &mut sink)
        };
        progress.finish();
        for problem in runner.teardown(&mut exec) {
            extra.push(Warning {
                kind: "teardown_failed".into(),
                message: problem,
            });
        }
        drop(services);
        // Scratch space (chain outputs, keys) is not a result: the journal is what resumes.
        let _ = fs::remove_dir_all(self.out_dir.join("work"));
        let _ = fs::remove_dir_all(&tmp);
        let end = end?;
        results.cells = in_plan_order(suite, self.plan, &all);
        results.finished_at = Some(results::now_rfc3339());
        results.status = if end == End::Interrupted {
            RunStatus::Interrupted
        } else {
            RunStatus::Complete
        };
        analysis::analyze(&mut results, &extra);
        Ok((results, end))
    }
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

pub fn run_suite(args: RunArgs) -> Result<ExitCode> {
    let mut suite = suite::load(&args.suite)?;
    if let Some(b) = &args.baseline {
        let names: Vec<&str> = suite.implementations.iter().map(|i| i.name.as_str()).collect();
        if !names.contains(&b.as_str()) {
            bail!(
                "--baseline {b}: no such implementation (expected one of: {})",
                names.join(", ")
            );
        }
        suite.baseline = Some(b.clone());
    }
    check_programs(&suite)?;
    let plan = plan::build(&suite, &selection(&args.common, args.only.clone())?)?;
    let (out_dir, resume) = match &args.resume {
        Some(dir) => {
            let journal = dir.join("cells.jsonl");
            if !journal.is_file() {
                bail!("--resume {}: no cells.jsonl there; nothing to resume", dir.display());
            }
            (dir.clone(), results::Journal::read(&journal)?)
        }
        None => {
            let default = PathBuf::from("versus-results").join(folder_name(&suite.name));
            (args.out.clone().unwrap_or(default), IndexMap::new())
        }
    };
    fs::create_dir_all(&out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    // Commands run in the suite's folder, so every path handed to them must be absolute.
    let out_dir = fs::canonicalize(&out_dir).with_context(|| format!("cannot resolve {}", out_dir.display()))?;
    let journal_path = out_dir.join("cells.jsonl");
    if args.resume.is_none() {
        let _ = fs::remove_file(&journal_path);
    }
    let results_path = out_dir.join("results.json");
    let execution = Execution {
        suite: &suite,
        plan: &plan,
        out_dir: &out_dir,
        resume,
        journal: Some(Journal::open(&journal_path)?),
        results_path: Some(results_path.clone()),
        quiet: args.common.quiet,
        noise: args.common.noise,
    };
    let (results, end) = execution.go()?;
    results::write_json_atomic(&results_path, &results)?;
    let report = out_dir.join("report.md");
    write_markdown(&results, &report, None)?;
    write_html(&results, &out_dir.join("report.html"), None)?;
    if let Some(extra) = &args.markdown {
        write_markdown(&results, extra, None)?;
    }
    if let Some(extra) = &args.html {
        write_html(&results, extra, None)?;
    }
    print!("{}", terminal::summary(&results));
    println!("\nResults: {}\nReport:  {}", results_path.display(), report.display());
    if end == End::Interrupted {
        eprintln!(
            "interrupted: the finished cells are saved; continue with --resume {}",
            out_dir.display()
        );
    }
    Ok(exit_code(&results, &end))
}

/// Builds an in-memory suite from ad-hoc commands: one operation, `exec`, no payload.
fn adhoc_suite(args: &ExecArgs) -> Result<Suite> {
    if !args.name.is_empty() && args.name.len() != args.commands.len() {
        bail!(
            "-n/--name: give one name per command ({} names for {} commands)",
            args.name.len(),
            args.commands.len()
        );
    }
    let mut implementations: Vec<Implementation> = Vec::new();
    for (i, text) in args.commands.iter().enumerate() {
        let name = args.name.get(i).cloned().unwrap_or_else(|| text.clone());
        if implementations.iter().any(|imp| imp.name == name) {
            bail!(
                "command {}: the name '{name}' is used twice; give distinct names with -n",
                i + 1
            );
        }
        let cmd = CommandTemplate::parse(text, args.shell).with_context(|| format!("command {} (`{text}`)", i + 1))?;
        if let Some(n) = cmd.names().first() {
            bail!(
                "command {} (`{text}`): placeholders such as {{{n}}} need a suite file (versus run)",
                i + 1
            );
        }
        implementations.push(Implementation {
            name,
            commands: vec![Some(cmd)],
            worker: None,
            version: None,
            setup: vec![],
            teardown: vec![],
            cwd: None,
            env: vec![],
            memory_limit: None,
            note: None,
            artifact: None,
            vars: vec![],
        });
    }
    if let Some(b) = &args.baseline
        && !implementations.iter().any(|i| &i.name == b)
    {
        bail!("--baseline {b}: no command has this name (name commands with -n)");
    }
    Ok(Suite {
        path: PathBuf::new(),
        dir: std::env::current_dir()?,
        name: "versus exec".into(),
        description: None,
        baseline: args.baseline.clone(),
        settings: suite::Settings {
            runs: suite::DEFAULT_RUNS,
            warmup: suite::DEFAULT_WARMUP,
            timeout: suite::DEFAULT_TIMEOUT,
            min_sample_time: suite::DEFAULT_MIN_SAMPLE_TIME,
        },
        matrix: IndexMap::new(),
        vars: IndexMap::new(),
        payload: None,
        setup: vec![],
        teardown: vec![],
        operations: vec![Operation {
            name: "exec".into(),
            input: Input::Payload,
            stdin: false,
            output: OutputMode::None,
            exit_code: 0,
            roundtrip: false,
            same_output: false,
            expect_file: None,
            expect_sha256: None,
            counts_payload: false,
        }],
        implementations,
        overrides: vec![],
        services: vec![],
    })
}

pub fn exec(args: ExecArgs) -> Result<ExitCode> {
    let suite = adhoc_suite(&args)?;
    for (i, imp) in suite.implementations.iter().enumerate() {
        if let Some(CommandTemplate::Words(w)) = &imp.commands[0] {
            let prog = w[0].to_string();
            if !program_exists(&prog, &suite.dir, &[]) {
                bail!(
                    "command {} (`{}`): program '{prog}' not found; use --shell for shell syntax",
                    i + 1,
                    args.commands[i]
                );
            }
        }
    }
    let plan = plan::build(&suite, &selection(&args.common, vec![])?)?;
    let scratch = tempfile::Builder::new().prefix("versus-exec-").tempdir()?;
    let execution = Execution {
        suite: &suite,
        plan: &plan,
        out_dir: scratch.path(),
        resume: IndexMap::new(),
        journal: None,
        results_path: None,
        quiet: args.common.quiet,
        noise: args.common.noise,
    };
    let (results, end) = execution.go()?;
    if let Some(p) = &args.json {
        results::write_json_atomic(p, &results)?;
    }
    if let Some(p) = &args.markdown {
        fs::write(p, markdown::render(&results)).with_context(|| format!("cannot write {}", p.display()))?;
    }
    print!("{}", terminal::summary(&results));
    Ok(exit_code(&results, &end))
}

pub const EXIT_REGRESSION: u8 = 4;

/// Writes the Markdown report to `path` with its SVG charts beside it.
fn write_markdown(results: &Results, path: &Path, notes: Option<&str>) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Charts are named after the report (age.md → age-chart-1-….svg), so reports sharing a folder keep theirs.
    let stem = path
        .file_stem()
        .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    let charts: Vec<(String, String)> = crate::report::html::chart_files(results)
        .into_iter()
        .map(|(name, svg)| (format!("{stem}-{name}"), svg))
        .collect();
    for (stem, svg) in &charts {
        let p = dir.join(format!("{stem}.svg"));
        fs::write(&p, svg).with_context(|| format!("cannot write {}", p.display()))?;
    }
    fs::write(path, markdown::render_with_charts(results, &charts, notes))
        .with_context(|| format!("cannot write {}", path.display()))
}

fn write_html(results: &Results, path: &Path, notes: Option<&str>) -> Result<()> {
    let html = crate::report::html::render(results, notes).context("rendering the HTML report")?;
    fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))
}

pub fn report(args: crate::cli::ReportArgs) -> Result<ExitCode> {
    let results = results::read(&args.results)?;
    if args.html.is_none() && args.markdown.is_none() && args.csv.is_none() && args.bmf.is_none() {
        bail!("nothing to write: give at least one of --html, --markdown, --csv, --bmf");
    }
    let notes = match &args.notes {
        Some(p) => Some(fs::read_to_string(p).with_context(|| format!("--notes {}: cannot read it", p.display()))?),
        None => None,
    };
    if let Some(p) = &args.html {
        write_html(&results, p, notes.as_deref())?;
    }
    if let Some(p) = &args.markdown {
        write_markdown(&results, p, notes.as_deref())?;
    }
    if let Some(p) = &args.csv {
        let text = crate::report::export::csv(&results).context("writing CSV")?;
        fs::write(p, text).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(p) = &args.bmf {
        results::write_json_atomic(p, &crate::report::export::bmf(&results))?;
    }
    Ok(ExitCode::from(EXIT_OK))
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
            return Ok(ExitCode::from(EXIT_REGRESSION));
        }
    }
    Ok(ExitCode::from(EXIT_OK))
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
    Ok(ExitCode::from(if failed == 0 { EXIT_OK } else { EXIT_NOT_OK }))
}

pub fn schema() -> Result<ExitCode> {
    println!("{}", serde_json::to_string_pretty(&suite::json_schema())?);
    Ok(ExitCode::from(EXIT_OK))
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
