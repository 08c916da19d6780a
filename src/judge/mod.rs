//! Judging samples: the one layer that decides what a difference means.
//! Everything that prints a verdict — the comparisons of a run, its findings,
//! `--fail-above`, and across runs (`history::judge`: `versus diff`, the
//! change since the last run, `versus trend`) — asks here, so one rule says
//! "this is a change" everywhere.
//!
//! - `levels`: a median's interval over runs and the segments (passes,
//!   forks) they were taken in, widened by the variation between segments.
//! - `verdict`: faster / slower / same / unknown from an interval and the
//!   noise band; the smallest change a comparison could see; what would
//!   settle an unknown.
//! - `compare`: two cells of one run (paired) or of two runs (unpaired).
//! - `carryover`: whether the implementation run just before changes a
//!   cell's time (from the recorded order), which no paired interval can see.
//! - `carryover_screen`: the same decided from few runs: every run after
//!   another implementation slower than every run after itself.
//! - `counts`: the same in a metric other than wall time (instructions),
//!   with that metric's noise band.
//! - `contention`: a comparison of implementations that use different
//!   numbers of cores, measured while other work took a share of the
//!   machine, widened by what that work could have cost each.
//! - `stability`: whether a cell's runs describe one level at all (two
//!   modes, a spread as wide as the level, passes in different modes).
//! - `overall`: one implementation against the reference over a whole
//!   suite: the geometric mean of its ratios, with an interval.

pub mod carryover;
pub mod carryover_screen;
pub mod compare;
pub mod contention;
pub mod counts;
pub mod levels;
pub mod overall;
pub mod pair;
pub mod stability;
pub mod verdict;
pub mod withhold;

#[cfg(test)]
mod carryover_screen_tests;
#[cfg(test)]
mod simulation;
