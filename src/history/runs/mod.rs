//! Runs compared with runs: `versus diff` and a report's change since the
//! last run (`diff`, judged by `history::judge`), and `versus trend`, a
//! cell's median over many runs with its change points (`trend`, drawn as
//! pages by `trend_pages`).

pub mod diff;
pub mod diff_table;
pub mod since;
pub mod trend;
pub mod trend_pages;
