//! `versus site`: a team's static site from the history store (either
//! backend) — the index, a page per suite and per cell, and the reports of
//! each suite's last runs — written only where a page's bytes changed; and
//! `--regressions`, the index's list of changes as text or JSON, exiting 4
//! (as `versus trend` does) when some suite's newest run is slower than the
//! run before in some cell. docs/site.md describes it.

mod read;

use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::recording::open;
use crate::analysis::site::{ChangeEntry, SuiteHistory, has_newest_slowdown};
use crate::app::cli::SiteArgs;
use crate::app::exit;
use crate::history::{Outside, Store};
use crate::report::site::publish::{self, Published};
use crate::report::site::{self, Page, paths};

pub fn site(args: SiteArgs) -> Result<ExitCode> {
    let mut store = open(&args.store, Path::new("."), &Outside::user_data())?;
    let (suites, changes) = read::site(&mut store)?;
    if let Some(dir) = &args.out {
        let done = write(&mut store, dir, &suites, &changes)?;
        let to = if args.regressions { tell_line } else { say_line };
        to(&format!(
            "Site: wrote {} of {} pages ({} removed) in {}",
            done.written,
            done.pages,
            done.removed,
            dir.display()
        ));
    }
    if !args.regressions {
        return Ok(ExitCode::from(exit::OK));
    }
    if args.json {
        super::say(&site::changes::json(&changes));
    } else {
        super::say(&site::changes::text(&changes));
    }
    Ok(ExitCode::from(if has_newest_slowdown(&changes) {
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

/// Writes every page under `dir`, then removes the site's pages no longer in it.
fn write(store: &mut Store, dir: &Path, suites: &[SuiteHistory], changes: &[ChangeEntry]) -> Result<Published> {
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}: cannot create the folder", dir.display()))?;
    let mut done = Published::default();
    let mut keep: HashSet<String> = HashSet::new();
    for page in site::pages(suites, changes) {
        done.written += usize::from(publish::write_page(dir, &page)?);
        keep.insert(page.path);
    }
    let mut reports: Vec<i64> = suites.iter().flat_map(|h| h.reports.iter().copied()).collect();
    reports.sort_unstable();
    for id in reports {
        let path = paths::report(id);
        // A run's document never changes: its report, once written, is kept as it is.
        if !dir.join(&path).is_file() {
            let page = Page {
                html: report(store, id)?,
                path: path.clone(),
            };
            done.written += usize::from(publish::write_page(dir, &page)?);
        }
        keep.insert(path);
    }
    done.pages = keep.len();
    done.removed = publish::remove_others(dir, &keep)?;
    Ok(done)
}

/// Run `id`'s HTML report, as `versus report` renders its exported document.
fn report(store: &mut Store, id: i64) -> Result<String> {
    let mut results = store
        .document(id)?
        .results()
        .with_context(|| format!("history store {}: run {id}", store.location))?;
    crate::analysis::reanalyze(&mut results);
    crate::report::formats::html::render(&results, None).with_context(|| format!("rendering the report of run {id}"))
}
