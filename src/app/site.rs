//! `versus site`: a team's static site from the history store (either
//! backend) — the index, a page per suite and per cell, and the reports of
//! each suite's last runs — written only where a page's bytes changed; and
//! `--regressions`, the index's list of changes as text or JSON, exiting 4
//! (as `versus trend` does) when some suite's newest run is slower than the
//! run before in some cell. docs/site.md describes it.

use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::recording::open;
use crate::app::cli::SiteArgs;
use crate::app::exit;
use crate::history::site::{self, ChangeEntry, Page, Published, SuiteHistory, has_newest_slowdown};
use crate::history::{Outside, RunSummary, Store};
use crate::results::Results;

pub fn site(args: SiteArgs) -> Result<ExitCode> {
    let mut store = open(&args.store, Path::new("."), &Outside::user_data())?;
    let pairs = site::pairs(&mut store)?;
    let Some(dir) = &args.out else {
        let (_, changes) = site::read(&mut store, pairs)?;
        return regressions(&args, &changes);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}: cannot create the folder", dir.display()))?;
    let (done, changes) = publish_to(&mut store, pairs, dir)?;
    let to = if args.regressions { tell_line } else { say_line };
    to(&format!(
        "Site: wrote {} of {} pages ({} removed) in {}",
        done.written,
        done.pages,
        done.removed,
        dir.display()
    ));
    regressions(&args, &changes)
}

/// Publishes the site of `pairs` into `dir`: what it did, and the list of changes.
fn publish_to(store: &mut Store, pairs: Vec<Vec<RunSummary>>, dir: &Path) -> Result<(Published, Vec<ChangeEntry>)> {
    let reports = site::reported(&pairs);
    std::thread::scope(|scope| {
        // A run's document never changes: its report, once written, is kept
        // as it is. The new ones are drawn on a thread of their own, one
        // document handed over at a time, while the store is read (which
        // keeps one core waiting).
        let (hand, take) = std::sync::mpsc::sync_channel::<(i64, Results)>(1);
        let drawer = scope.spawn(move || -> Result<usize> {
            let mut written = 0;
            for (id, results) in take {
                written += usize::from(site::write_page(dir, &report(id, &results)?)?);
            }
            Ok(written)
        });
        for id in reports.iter().filter(|id| !dir.join(site::report_path(**id)).is_file()) {
            if hand.send((*id, document(store, *id)?)).is_err() {
                break; // the drawer stopped at an error, given below
            }
        }
        drop(hand);
        let (suites, changes) = site::read(store, pairs)?;
        let (mut done, mut keep) = write(dir, &suites, &changes)?;
        done.written += drawer.join().unwrap_or_else(|e| std::panic::resume_unwind(e))?;
        keep.extend(reports.iter().map(|id| site::report_path(*id)));
        done.pages = keep.len();
        done.removed = site::remove_others(dir, &keep)?;
        Ok((done, changes))
    })
}

/// With `--regressions`, the list of changes and the exit status 4 on a slower newest run.
fn regressions(args: &SiteArgs, changes: &[ChangeEntry]) -> Result<ExitCode> {
    if !args.regressions {
        return Ok(ExitCode::from(exit::OK));
    }
    if args.json {
        super::say(&site::changes_json(changes));
    } else {
        super::say(&site::changes_text(changes));
    }
    Ok(ExitCode::from(if has_newest_slowdown(changes) {
        exit::REGRESSION
    } else {
        exit::OK
    }))
}

fn say_line(text: &str) {
    say!("{text}");
}

fn tell_line(text: &str) {
    tell!("{text}");
}

/// Writes the site's own pages under `dir`, on every core, each only where
/// its bytes changed; and the paths of all of them.
fn write(dir: &Path, suites: &[SuiteHistory], changes: &[ChangeEntry]) -> Result<(Published, HashSet<String>)> {
    let pages = site::pages(suites, changes);
    let written = crate::base::parallel::map(&pages, |page| site::write_page(dir, page));
    let mut done = Published::default();
    for w in written {
        done.written += usize::from(w?);
    }
    Ok((done, pages.into_iter().map(|p| p.path).collect()))
}

/// Run `id`'s document as `versus report` reads it: analysed again by this versus.
fn document(store: &mut Store, id: i64) -> Result<Results> {
    let mut results = store
        .document(id)?
        .results()
        .with_context(|| format!("history store {}: run {id}", store.location))?;
    crate::analysis::reanalyze(&mut results);
    Ok(results)
}

/// Run `id`'s HTML report page, as `versus report` renders it.
fn report(id: i64, results: &Results) -> Result<Page> {
    Ok(Page {
        html: crate::report::formats::html::render(results, None)
            .with_context(|| format!("rendering the report of run {id}"))?,
        path: site::report_path(id),
    })
}
