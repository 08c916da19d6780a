//! Glue between runs and the history store: before a run's results are
//! written, the store is opened and the "change since" an earlier run is
//! attached; after they are written, the run is recorded. A store that
//! cannot be opened or written never costs the run its results folder: its
//! error is returned only once the results are on disk. Also the
//! `history`, `trend` and `diff RUN|NAME` subcommands.

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use crate::analysis;
use crate::cli::{HistoryAction, HistoryArgs, Record, StoreArg, TrendArgs};
use crate::exit;
use crate::history::store::machine_of;
use crate::history::{self, Filter, Location, Outside, RunMeta, Store, context};
use crate::judge::noise::{self, Book};
use crate::report::{files, terminal};
use crate::results::{self, Results};
use crate::stats::changepoint;
use crate::trend;

/// A run's link to the store, from before its results are written to after.
pub struct Recording {
    store: Result<Store>,
    meta: RunMeta,
    save_baseline: Option<String>,
}

/// This machine's identity, as runs record it.
fn this_machine() -> String {
    machine_of(&crate::environment::collect(""))
}

/// The store `--store` names (or the default for `dir`). A default store
/// made now is said once, with where it is and why there.
fn open(arg: &StoreArg, dir: &Path, outside: &Outside) -> Result<Store> {
    let location = Location::resolve(arg.store.as_deref(), dir, outside);
    let new = matches!(&location, Location::Sqlite(p) if !p.exists()) && arg.store.is_none();
    let store = history::open(&location)?;
    if new {
        let why = if location.is_user_data(outside) {
            "this folder is in no git repository, so its runs are kept in your data folder"
        } else {
            "at the root of the project"
        };
        eprintln!(
            "History: a new store at {} ({why}); choose another with --store or VERSUS_STORE, or skip it with --no-history",
            location.shown()
        );
    }
    Ok(store)
}

/// Opens the store for a run of the suite in `dir` (None with --no-history)
/// and attaches the change since an earlier run to `results`. `hashed` is
/// what identifies the suite's content (the file, or exec's commands).
pub fn start(
    record: &Record,
    dir: &Path,
    outside: &Outside,
    results: &mut Results,
    suite_hash: String,
    source: &str,
) -> Option<Recording> {
    if record.no_history {
        return None;
    }
    let meta = RunMeta {
        suite_hash,
        exit_status: None,
        git: context::git_state(dir),
        source: source.to_string(),
        machine_id: None,
    };
    let mut store = open(&record.store, dir, outside);
    if let Ok(s) = &mut store {
        match since(s, results, record.compare_to.as_deref()) {
            Ok(Some(since)) => results.since = Some(since),
            Ok(None) => {}
            Err(e) => store = Err(e),
        }
    }
    Some(Recording {
        store,
        meta,
        save_baseline: record.save_baseline.clone(),
    })
}

/// The earlier run to compare with: --compare-to, else the last run of the suite here.
fn since(store: &mut Store, results: &Results, compare_to: Option<&str>) -> Result<Option<results::Since>> {
    let here = machine_of(&results.environment);
    let (id, label) = match compare_to {
        None => match store.last_run(&results.suite.name, &here, content_key(results))? {
            Some(id) => (id, "the last run".to_string()),
            None => return Ok(None),
        },
        Some(reference) => (
            resolve(store, reference, Some(&results.suite.name))
                .with_context(|| format!("--compare-to {reference}"))?,
            match reference.parse::<i64>() {
                Ok(id) => format!("run {id}"),
                Err(_) => format!("baseline {reference}"),
            },
        ),
    };
    let mut old = parse(&store.document(id)?, &format!("run {id}"))?;
    analysis::analyze(&mut old, &[]);
    let warning = (machine_of(&old.environment) != here).then(|| {
        format!(
            "run {id} was measured on another machine ({}, {} cores, host {}); ratios across machines mislead",
            old.environment.cpu_model,
            old.environment.cores,
            old.environment
                .machine
                .as_ref()
                .map_or("unknown", |m| m.hostname.as_str())
        )
    });
    if let Some(w) = &warning {
        eprintln!("WARNING: {w}");
    }
    let noise = noise_book(store, results, &here);
    Ok(Some(crate::diff::since(&old, results, &noise, id, &label, warning)))
}

/// What narrows a suite's history to runs of the same content: nothing for
/// a suite file (its title names it, edits and all), the commands' hash for
/// `versus exec` (every ad-hoc run shares one title).
fn content_key(results: &Results) -> Option<&str> {
    results
        .suite
        .file
        .is_none()
        .then_some(results.suite.hash.as_deref())
        .flatten()
}

/// The run-to-run noise of the cells of `results`' suite on `machine`, from
/// the store's recent runs; empty (changes judged by their intervals alone)
/// when the store cannot say.
pub fn noise_book(store: &mut Store, results: &Results, machine: &str) -> Book {
    match store.recent_medians(&results.suite.name, machine, content_key(results), noise::WINDOW) {
        Ok(by_cell) => Book::from_history(by_cell),
        Err(e) => {
            eprintln!(
                "note: the history store could not give run-to-run noise ({e:#}); changes are judged by their runs alone"
            );
            Book::default()
        }
    }
}

/// The noise book for `versus diff`: from the store `--store` names, or the
/// default one where it already exists (none is made for a diff).
pub fn diff_noise(arg: &StoreArg, old: &Results, new: &Results) -> Book {
    let location = Location::resolve(arg.store.as_deref(), Path::new("."), &Outside::user_data());
    if matches!(&location, Location::Sqlite(p) if !p.is_file()) {
        return Book::default();
    }
    let Ok(mut store) = history::open(&location) else {
        return Book::default();
    };
    // Judged on the newer run's machine; a cross-machine diff has no shared noise.
    let machine = machine_of(&new.environment);
    if machine != machine_of(&old.environment) {
        return Book::default();
    }
    noise_book(&mut store, new, &machine)
}

/// A run id, or a baseline name (of `suite` when given; this machine's when several).
fn resolve(store: &mut Store, reference: &str, suite: Option<&str>) -> Result<i64> {
    if let Ok(id) = reference.parse::<i64>() {
        store.run(id)?;
        return Ok(id);
    }
    let mut found = store.baselines(reference)?;
    found.retain(|(s, _, _)| suite.is_none_or(|want| want == s));
    if found.len() > 1 {
        let here = this_machine();
        found.retain(|(_, m, _)| *m == here);
    }
    match found.as_slice() {
        [(_, _, id)] => Ok(*id),
        [] => bail!(
            "no run {reference} and no baseline named {reference}{} in the history store {}",
            suite.map(|s| format!(" for suite '{s}'")).unwrap_or_default(),
            store.location
        ),
        _ => bail!("baseline {reference} names runs of several suites; give a run id"),
    }
}

fn parse(document: &str, what: &str) -> Result<Results> {
    serde_json::from_str(document).with_context(|| format!("{what}: the recorded document is not a results file"))
}

/// Records the run whose results file holds `document`, once its results are
/// written. A store error is returned now, after the results are safe.
/// Records the run; returns its id in the store (`None` with --no-history).
pub fn finish(recording: Option<Recording>, results: &Results, document: &str, status: u8) -> Result<Option<i64>> {
    let Some(mut rec) = recording else { return Ok(None) };
    let store = rec.store.as_mut().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    rec.meta.exit_status = Some(status);
    let id = store.record(results, document, &rec.meta)?;
    if let Some(name) = &rec.save_baseline {
        store.save_baseline(name, id)?;
        eprintln!(
            "History: run {id} recorded in {}, saved as baseline {name}",
            store.location
        );
    } else {
        eprintln!("History: run {id} recorded in {}", store.location);
    }
    Ok(Some(id))
}

/// `versus diff`: a results file, or a run id / baseline name from the store.
pub fn load(reference: &str, arg: &StoreArg) -> Result<Results> {
    let path = Path::new(reference);
    if path.exists() || reference.ends_with(".json") {
        return results::read(path);
    }
    let mut store =
        open(arg, Path::new("."), &Outside::user_data()).with_context(|| format!("{reference} is not a file"))?;
    let id = resolve(&mut store, reference, None)?;
    parse(&store.document(id)?, &format!("run {id}"))
}

pub fn history(args: HistoryArgs) -> Result<ExitCode> {
    let mut store = open(&args.store, Path::new("."), &Outside::user_data())?;
    // `versus history` alone lists, as `versus history list` does.
    let action = args.action.unwrap_or(HistoryAction::List {
        suite: None,
        machine: None,
        branch: None,
        since: None,
        limit: crate::cli::HISTORY_LIST_LIMIT,
    });
    match action {
        HistoryAction::List {
            suite,
            machine,
            branch,
            since,
            limit,
        } => list(
            &mut store,
            &Filter {
                suite,
                machine,
                branch,
                since,
            },
            limit,
        ),
        HistoryAction::Show { run } => show(&mut store, run),
        HistoryAction::Export { run, out } => {
            files::write_document(&out, &store.document(run)?)?;
            println!("run {run} written to {}", out.display());
            Ok(ExitCode::from(exit::OK))
        }
        HistoryAction::Import { files, as_this_machine } => import(&mut store, &files, as_this_machine),
        HistoryAction::Prune {
            keep,
            before,
            run,
            suite,
        } => prune(&mut store, keep, before, run, suite),
    }
}

fn short(commit: &Option<String>) -> String {
    commit.as_deref().map_or("—".into(), |c| c.chars().take(10).collect())
}

fn list(store: &mut Store, filter: &Filter, limit: usize) -> Result<ExitCode> {
    let runs = store.list(filter, limit)?;
    let mut table = crate::report::tables::Table {
        notes: vec![],
        kind: crate::report::tables::TableKind::Info,
        title: format!("Runs in {}, newest first", store.location),
        header: [
            "run", "started", "suite", "machine", "branch", "commit", "status", "exit", "cells",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        rows: vec![],
        labels: 3,
        runs: vec![],
    };
    for r in &runs {
        let dirty = if r.git.dirty == Some(true) { "+dirty" } else { "" };
        table.rows.push(vec![
            r.id.to_string(),
            r.started_at.clone(),
            r.suite_name.clone(),
            format!("{} ({})", r.hostname.as_deref().unwrap_or("?"), r.machine_id),
            r.git.branch.clone().unwrap_or_else(|| "—".into()),
            format!("{}{dirty}", short(&r.git.commit)),
            r.status.clone(),
            r.exit_status.map_or("—".into(), |e| e.to_string()),
            r.cells.to_string(),
        ]);
    }
    print!(
        "{}",
        terminal::render_table_with(&table, terminal::Layout::stdout(false))
    );
    if runs.is_empty() {
        println!("(no runs)");
    }
    Ok(ExitCode::from(exit::OK))
}

fn show(store: &mut Store, id: i64) -> Result<ExitCode> {
    let r = store.run(id)?;
    let results = parse(&store.document(id)?, &format!("run {id}"))?;
    println!("run {}: {} ({}), {}", r.id, r.suite_name, r.status, r.started_at);
    println!(
        "machine: {} ({}), {}",
        r.hostname.as_deref().unwrap_or("?"),
        r.machine_id,
        r.cpu_model
    );
    println!(
        "git: {} {}{}",
        r.git.branch.as_deref().unwrap_or("—"),
        short(&r.git.commit),
        if r.git.dirty == Some(true) {
            " (uncommitted changes)"
        } else {
            ""
        }
    );
    println!("command: {}\nrecorded by: {}\n", results.suite.command, r.source);
    print!(
        "{}",
        terminal::summary_with(&results, false, terminal::Layout::stdout(false))
    );
    Ok(ExitCode::from(exit::OK))
}

fn import(store: &mut Store, paths: &[std::path::PathBuf], as_this_machine: bool) -> Result<ExitCode> {
    let here = as_this_machine.then(this_machine);
    for p in paths {
        let results = results::read(p)?;
        let text = fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        let end = match results.status {
            results::RunStatus::Interrupted => crate::runner::End::Interrupted,
            _ => crate::runner::End::Complete,
        };
        let meta = RunMeta {
            suite_hash: context::hash(
                results
                    .suite
                    .file
                    .as_deref()
                    .and_then(|f| fs::read(f).ok())
                    .unwrap_or_default()
                    .as_slice(),
            ),
            exit_status: Some(exit::status_of_run(&results, &end)),
            git: Default::default(),
            source: "import".into(),
            machine_id: here.clone(),
        };
        let id = store.record(&results, &text, &meta)?;
        println!("{}: run {id} ({})", p.display(), results.suite.name);
    }
    Ok(ExitCode::from(exit::OK))
}

fn prune(
    store: &mut Store,
    keep: Option<usize>,
    before: Option<String>,
    mut ids: Vec<i64>,
    suite: Option<String>,
) -> Result<ExitCode> {
    if keep.is_none() && before.is_none() && ids.is_empty() {
        bail!("versus history prune: say what to delete with --keep N, --before TIME or --run ID");
    }
    let all = store.list(
        &Filter {
            suite,
            ..Default::default()
        },
        usize::MAX >> 1,
    )?;
    let mut seen: std::collections::HashMap<(String, String), usize> = Default::default();
    for r in &all {
        let n = seen.entry((r.suite_name.clone(), r.machine_id.clone())).or_default();
        *n += 1;
        let old = keep.is_some_and(|k| *n > k) || before.as_deref().is_some_and(|b| r.started_at.as_str() < b);
        if old {
            ids.push(r.id);
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let (deleted, kept) = store.prune(&ids)?;
    println!("deleted {deleted} run(s) from {}", store.location);
    if !kept.is_empty() {
        println!(
            "kept run(s) {} because a baseline names them",
            kept.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(ExitCode::from(exit::OK))
}

pub fn trend(args: TrendArgs) -> Result<ExitCode> {
    let mut store = open(&args.store, Path::new("."), &Outside::user_data())?;
    let machine = match &args.machine {
        None => this_machine(),
        Some(m) => match store
            .list(
                &Filter {
                    machine: Some(m.clone()),
                    ..Default::default()
                },
                1,
            )?
            .first()
        {
            Some(r) => r.machine_id.clone(),
            None => bail!(
                "--machine {m}: no runs of that machine in the history store {}",
                store.location
            ),
        },
    };
    let suites = store.suites(&machine)?;
    let suite = match &args.suite {
        Some(s) if suites.contains(s) => s.clone(),
        Some(s) => bail!(
            "--suite {s}: no runs of it on machine {machine} in {} (suites there: {})",
            store.location,
            suites.join(", ")
        ),
        None => match suites.first() {
            Some(s) => s.clone(),
            None => bail!("no runs on machine {machine} in the history store {}", store.location),
        },
    };
    let rows = store.trend_rows(&suite, &machine, args.metric)?;
    if rows.is_empty() {
        bail!(
            "no {} recorded for suite {suite} on machine {machine} in {}",
            args.metric.name(),
            store.location
        );
    }
    let t = trend::build(&suite, &machine, &rows, &changepoint::Options::default(), args.metric);
    let (mut html, mut md) = (args.html.clone(), args.markdown.clone());
    if html.is_none() && md.is_none() {
        let dir = Path::new("versus-results").join(super::folder_name(&suite));
        html = Some(dir.join("trend.html"));
        md = Some(dir.join("trend.md"));
    }
    files::write_trend(&t, html.as_deref(), md.as_deref())?;
    for c in &t.cells {
        let changes: Vec<String> = c
            .changes
            .iter()
            .map(|ch| format!("run {} {:+.1}%", c.points[ch.index].run_id, (ch.ratio() - 1.0) * 100.0))
            .collect();
        println!(
            "{}: {} run(s), changes: {}",
            c.id,
            c.points.len(),
            if changes.is_empty() {
                "none".into()
            } else {
                changes.join(", ")
            }
        );
    }
    for p in html.iter().chain(md.iter()) {
        println!("Trend:   {}", p.display());
    }
    let bad = t.newest_regressions();
    if bad.is_empty() {
        return Ok(ExitCode::from(exit::OK));
    }
    eprintln!(
        "the newest run (run {}) starts a regression in {} cell(s): {}",
        t.runs.last().copied().unwrap_or(0),
        bad.len(),
        bad.iter().map(|c| c.id.as_str()).collect::<Vec<_>>().join(", ")
    );
    Ok(ExitCode::from(exit::REGRESSION))
}
