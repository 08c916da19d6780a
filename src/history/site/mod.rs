//! The team's site: what a store's runs say over time (`model`, read from
//! the store by `read`, with a cache of each run's cells in `cache`), drawn
//! as static pages, each a
//! self-contained HTML file (inline CSS, inline SVG, no script, nothing
//! fetched), linked to one another by relative paths so that any static
//! host serves the folder and a browser opens it from disk.
//!
//! - `paths`: where each page goes, and the links between them.
//! - `layout`: the page shell and its style.
//! - `chart`: the one SVG chart the site draws (lines over runs).
//! - `index`, `suite`, `cell`: the three kinds of page.
//! - `changes`: the list of changes as text and JSON (`--regressions`).
//! - `publish`: writes the pages, only those whose bytes changed.
//!
//! Every name that came from a suite, a store or a program passes through
//! `base::sink::html` on its way into a page; command lines were hidden of
//! passwords (`base::redact`) when read.

mod cache;
mod cell;
mod changes;
mod chart;
mod index;
mod layout;
mod model;
mod paths;
mod publish;
mod read;
mod suite;

pub(crate) use changes::{json as changes_json, text as changes_text};
pub(crate) use model::has_newest_slowdown;
pub(crate) use paths::report as report_path;
pub(crate) use publish::{Published, remove_others, write_page};
pub(crate) use read::{pairs, reported, site as read};

pub(crate) use crate::history::site::model::{ChangeEntry, SuiteHistory};

/// A page: its path under the site's folder (with `/`) and its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub path: String,
    pub html: String,
}

/// Every page of the site but the runs' reports (which `app::site` renders
/// with the HTML report): the index, one page per suite, one per cell.
pub fn pages(suites: &[SuiteHistory], changes: &[ChangeEntry]) -> Vec<Page> {
    let mut out = vec![Page {
        path: paths::INDEX.to_string(),
        html: index::render(suites, changes),
    }];
    let mut names: Vec<&str> = suites.iter().map(|s| s.suite.as_str()).collect();
    names.dedup();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let machines: Vec<&SuiteHistory> = suites.iter().filter(|s| s.suite == name).collect();
        out.push(Page {
            path: paths::suite(name),
            html: suite::render(name, &machines),
        });
        for h in &machines {
            // Most of a site is its cell pages: drawn on every core.
            out.extend(crate::base::parallel::map(&h.cells, |c| Page {
                path: paths::cell(name, &h.machine, &c.id),
                html: cell::render(h, c),
            }));
        }
    }
    out
}
