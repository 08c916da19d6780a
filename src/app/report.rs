//! `versus report`: renders saved results. A results file is rendered as
//! it is. A results folder (finished or not) or its journal is rendered from
//! what is there: the results file, or, when the run left none (killed, or
//! still going) or one older than its journal (a resume that did not
//! finish), the journal's groups, marked interrupted. Nothing is measured,
//! and nothing in the folder changes but the reports written: a run may
//! still be appending to the journal.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::{colour, say, summary};
use crate::app::cli::{ReportArgs, Style};
use crate::app::exit;
use crate::report::{self, Outputs};
use crate::results::{self, Journal, Results};
use crate::session::{self, Why};

/// What `versus report` was given.
enum Input {
    /// A results file (`results.json`, `versus exec --json`).
    File(PathBuf),
    /// A run's output folder.
    Folder(PathBuf),
    /// A run's journal (`cells.jsonl`).
    Journal(PathBuf),
}

impl Input {
    fn of(path: &Path) -> Input {
        if path.is_dir() {
            Input::Folder(path.to_path_buf())
        } else if Journal::looks_like(path) {
            Input::Journal(path.to_path_buf())
        } else {
            Input::File(path.to_path_buf())
        }
    }
}

pub fn report(args: ReportArgs) -> Result<ExitCode> {
    let input = Input::of(&args.results);
    let (results, folder) = match &input {
        Input::File(path) => (results::read(path)?, None),
        Input::Folder(dir) => (from_folder(dir)?, Some(dir.clone())),
        Input::Journal(path) => (
            from_journal(path, None, Why::Asked)?,
            Some(path.parent().unwrap_or(Path::new(".")).to_path_buf()),
        ),
    };
    let mut results = results;
    // Statistics, verdicts and findings as this versus computes them, also
    // for files written by an older one.
    crate::analysis::reanalyze(&mut results);
    if let Some(p) = &args.pr_comment {
        if results.revisions.is_none() {
            bail!(
                "--pr-comment: {} measured no revisions (`versus run --rev A --rev B`); there is nothing to compare",
                args.results.display()
            );
        }
        let text = crate::report::formats::pr_comment::render(&results, args.report_url.as_deref());
        fs::write(p, text).with_context(|| format!("--pr-comment: cannot write {}", p.display()))?;
    }
    let mut outputs = Outputs {
        html: args.html.iter().cloned().collect(),
        markdown: args.markdown.iter().cloned().collect(),
        csv: args.csv.clone(),
        bmf: args.bmf.clone(),
        json: args.json.clone(),
        ..super::exports(&args.exports)
    };
    match &folder {
        // A folder's reports go where `versus run` puts them, unless asked elsewhere.
        Some(dir) if outputs.is_empty() => {
            outputs.markdown.push(dir.join("report.md"));
            outputs.html.push(dir.join("report.html"));
        }
        // A results file with nothing asked for: the terminal report, as `versus run` ends.
        None if outputs.is_empty() && args.pr_comment.is_some() => return Ok(ExitCode::from(exit::OK)),
        None if outputs.is_empty() => {
            if args.notes.is_some() {
                bail!("--notes goes into the HTML and Markdown reports: give --html or --markdown too");
            }
            say(&summary(&results, args.verbose, colour(args.color, Style::Auto)));
            return Ok(ExitCode::from(exit::OK));
        }
        _ => {}
    }
    let notes = super::notes::find(args.notes.as_deref(), &results, &outputs)?;
    report::write(&results, &outputs, notes.as_deref())?;
    if folder.is_some() {
        say(&summary(&results, args.verbose, colour(args.color, Style::Auto)));
        for p in outputs.markdown.iter().chain(&outputs.html) {
            say(&format!("Report: {}\n", p.display()));
        }
    }
    Ok(ExitCode::from(exit::OK))
}

/// A run's folder: its results file, unless the journal beside it holds
/// groups the file lacks, or there is only the journal.
fn from_folder(dir: &Path) -> Result<Results> {
    let (file, journal) = (dir.join("results.json"), dir.join("cells.jsonl"));
    match (file.is_file(), journal.is_file()) {
        (true, false) => results::read(&file),
        (true, true) => {
            let written = results::read(&file)?;
            let found = Journal::read(&journal)?;
            if session::journal_is_newer(&found, &written) {
                rebuilt(found, &journal, Some(written), Why::ResultsOlder)
            } else {
                Ok(written)
            }
        }
        (false, true) => from_journal(&journal, None, Why::NoResults),
        (false, false) => bail!(
            "{}: neither results.json nor cells.jsonl is there; pass a folder written by `versus run`, a results.json, or a cells.jsonl",
            dir.display()
        ),
    }
}

fn from_journal(path: &Path, fallback: Option<Results>, why: Why) -> Result<Results> {
    let found = Journal::read(path)?;
    rebuilt(found, path, fallback, why)
}

/// The journal's document, analysed and checked like a results file read back.
fn rebuilt(found: results::Recovered, path: &Path, fallback: Option<Results>, why: Why) -> Result<Results> {
    if found.cells.is_empty() {
        bail!(
            "{}: no group is recorded there yet (the run has not finished one); nothing to render",
            path.display()
        );
    }
    let (mut doc, warnings) = session::rebuild(found, path, fallback, why);
    for w in &warnings {
        tell!("note: {}", w.message);
    }
    crate::analysis::analyze(&mut doc, &warnings);
    results::validate(&doc).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(doc)
}
