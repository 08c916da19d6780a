//! `versus history`: list, show, export, import, prune and size up the runs
//! in the store. Printing goes through `say!`, which stops quietly when the
//! reader went away (`versus history show 3 | head -1`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::recording::{meta_path, open};
use crate::app::cli::{HistoryAction, HistoryArgs};
use crate::app::exit;
use crate::base::units::format_bytes;
use crate::history::StoreStats;
use crate::history::runs::this_machine;
use crate::history::{Document, Filter, Outside, RunMeta, Store};
use crate::report::formats::terminal;
use crate::results;

pub fn history(args: HistoryArgs) -> Result<ExitCode> {
    let mut store = open(&args.store, Path::new("."), &Outside::user_data())?;
    // `versus history` alone lists, as `versus history list` does.
    let action = args.action.unwrap_or(HistoryAction::List {
        suite: None,
        machine: None,
        branch: None,
        since: None,
        limit: crate::app::cli::HISTORY_LIST_LIMIT,
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
            store.document(run)?.write_text(&out)?;
            say!("run {run} written to {}", out.display());
            Ok(ExitCode::from(exit::OK))
        }
        HistoryAction::Import { files, as_this_machine } => import(&mut store, &files, as_this_machine),
        HistoryAction::Prune {
            keep,
            before,
            run,
            suite,
        } => prune(&mut store, keep, before, run, suite),
        HistoryAction::Stats => stats(&mut store),
    }
}

fn short(commit: &Option<String>) -> String {
    commit.as_deref().map_or("—".into(), |c| c.chars().take(10).collect())
}

/// Columns a listing may take when it goes to a pipe: enough for any row.
const UNWRAPPED: usize = 10_000;

fn list(store: &mut Store, filter: &Filter, limit: usize) -> Result<ExitCode> {
    let runs = store.list(filter, limit)?;
    let mut table = crate::report::Table {
        notes: vec![],
        kind: crate::report::TableKind::Info,
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
    // Piped (a script, grep), a row stays one line whatever its width.
    let layout = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        terminal::Layout::stdout(false)
    } else {
        terminal::Layout::plain(UNWRAPPED)
    };
    super::say(&terminal::render_table_with(&table, layout));
    if runs.is_empty() {
        say!("(no runs)");
    }
    Ok(ExitCode::from(exit::OK))
}

fn show(store: &mut Store, id: i64) -> Result<ExitCode> {
    let r = store.run(id)?;
    let results = store
        .document(id)?
        .results()
        .with_context(|| format!("run {id}: the recorded document is not a results file"))?;
    let mut text = format!("run {}: {} ({}), {}\n", r.id, r.suite_name, r.status, r.started_at);
    text += &format!(
        "machine: {} ({}), {}\n",
        r.hostname.as_deref().unwrap_or("?"),
        r.machine_id,
        r.cpu_model
    );
    text += &format!(
        "git: {} {}{}\n",
        r.git.branch.as_deref().unwrap_or("—"),
        short(&r.git.commit),
        if r.git.dirty == Some(true) {
            " (uncommitted changes)"
        } else {
            ""
        }
    );
    text += &format!("command: {}\nrecorded by: {}\n\n", results.suite.command, r.source);
    text += &terminal::summary_with(&results, false, terminal::Layout::stdout(false));
    super::say(&text);
    Ok(ExitCode::from(exit::OK))
}

/// What the store keeps besides the document: from the file a run left
/// to import (`NAME.meta.json`), else what the document says.
fn import_meta(path: &Path, results: &results::Results, here: Option<&String>) -> Result<RunMeta> {
    let sidecar = meta_path(path);
    if sidecar.is_file() {
        let text = fs::read_to_string(&sidecar).with_context(|| format!("cannot read {}", sidecar.display()))?;
        let mut meta: RunMeta =
            serde_json::from_str(&text).with_context(|| format!("{}: not what versus left", sidecar.display()))?;
        if let Some(h) = here {
            meta.machine_id = Some(h.clone());
        }
        return Ok(meta);
    }
    let end = match results.status {
        results::RunStatus::Interrupted => crate::runner::End::Interrupted,
        _ => crate::runner::End::Complete,
    };
    Ok(RunMeta {
        suite_hash: crate::base::digest::sha256_hex(
            results
                .suite
                .file
                .as_deref()
                .and_then(|f| fs::read(f).ok())
                .unwrap_or_default()
                .as_slice(),
        ),
        exit_status: Some(exit::status_of_run(results, &end)),
        // The suite's repository as the run recorded it (no branch: a
        // document does not keep one).
        git: results
            .suite
            .git
            .as_ref()
            .map(|g| crate::history::Git {
                commit: Some(g.commit.clone()),
                branch: None,
                dirty: Some(g.dirty),
            })
            .unwrap_or_default(),
        source: "import".into(),
        machine_id: here.cloned(),
    })
}

fn import(store: &mut Store, paths: &[PathBuf], as_this_machine: bool) -> Result<ExitCode> {
    let here = as_this_machine.then(this_machine);
    for p in paths {
        let results = results::read(p)?;
        let meta = import_meta(p, &results, here.as_ref())?;
        let id = store.record(&results, &Document::from_file(p, store.packing())?, &meta)?;
        say!("{}: run {id} ({})", p.display(), results.suite.name);
    }
    Ok(ExitCode::from(exit::OK))
}

/// The runs `--keep` and `--before` name; reads the run list only when they are given.
fn old_runs(store: &mut Store, keep: Option<usize>, before: Option<&str>, suite: Option<String>) -> Result<Vec<i64>> {
    if keep.is_none() && before.is_none() {
        return Ok(vec![]);
    }
    let filter = Filter {
        suite,
        ..Default::default()
    };
    let mut seen: std::collections::HashMap<(String, String), usize> = Default::default();
    let mut ids = Vec::new();
    for r in store.list(&filter, usize::MAX >> 1)? {
        let n = seen.entry((r.suite_name.clone(), r.machine_id.clone())).or_default();
        *n += 1;
        if keep.is_some_and(|k| *n > k) || before.is_some_and(|b| r.started_at.as_str() < b) {
            ids.push(r.id);
        }
    }
    Ok(ids)
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
    ids.extend(old_runs(store, keep, before.as_deref(), suite)?);
    ids.sort_unstable();
    ids.dedup();
    let size = store.stats_size()?;
    let (deleted, kept) = store.prune(&ids)?;
    let freed = size.saturating_sub(store.stats_size()?);
    say!(
        "deleted {deleted} run(s) from {}{}",
        store.location,
        if deleted > 0 {
            format!(", {} given back", format_bytes(freed))
        } else {
            String::new()
        }
    );
    if !kept.is_empty() {
        say!(
            "kept run(s) {} because a baseline names them",
            kept.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(ExitCode::from(exit::OK))
}

fn stats(store: &mut Store) -> Result<ExitCode> {
    let s: StoreStats = store.stats()?;
    let per_run = |bytes: u64| format_bytes(bytes.checked_div(s.runs).unwrap_or(0));
    let mut text = format!(
        "{}: {} in {} run(s), {} cell row(s): {} per run\n",
        store.location,
        format_bytes(s.store_bytes),
        s.runs,
        s.cells,
        per_run(s.store_bytes)
    );
    if let Some(free) = s.free_bytes {
        text += &format!(
            "free inside the file: {} (reused before it grows)\n",
            format_bytes(free)
        );
    }
    text += &format!(
        "documents (compressed): {}, {} per run\n",
        format_bytes(s.document_bytes),
        per_run(s.document_bytes)
    );
    for (table, bytes) in &s.tables {
        text += &format!("  {table}: {} ({} per run)\n", format_bytes(*bytes), per_run(*bytes));
    }
    for x in &s.suites {
        text += &format!(
            "suite {} on {}: {} run(s) from {} to {}, {:.0} cells and {} of document per run\n",
            x.suite,
            x.machine,
            x.runs,
            x.first_started_at,
            x.last_started_at,
            x.cells_per_run,
            format_bytes(x.document_bytes_per_run as u64)
        );
    }
    super::say(&text);
    Ok(ExitCode::from(exit::OK))
}
