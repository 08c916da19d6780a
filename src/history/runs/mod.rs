//! Runs compared with runs: `versus diff` and a report's change since the
//! last run (`diff`, judged by `history::judge`), and `versus trend`, a
//! cell's median over many runs with its change points (`trend`, drawn as
//! pages by `trend_pages`).

pub(in crate::history) mod diff;
mod diff_table;
pub(in crate::history) mod since;
pub(in crate::history) mod trend;
mod trend_pages;

pub use diff::diff;
pub(crate) use diff::{machine_differences, regressions};
pub use diff_table::table;
pub(crate) use since::{prior, resolve, since, this_machine};
pub(crate) use trend::{DRAW_ALL_UP_TO, Medians, Point, Trend, build as build_trend, detect as detect_trend, to_draw};
pub(crate) use trend_pages::write as write_trend;
