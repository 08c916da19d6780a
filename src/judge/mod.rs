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

mod carryover;
mod carryover_screen;
mod compare;
mod contention;
mod counts;
mod levels;
mod overall;
mod pair;
mod stability;
mod verdict;
mod withhold;

// The face: the pairing entry and the verdict types first, then the pieces
// the across-runs judge and the findings build on. Nothing else leaves.
pub(crate) use pair::{Judged, judge_pair};
pub(crate) use verdict::decide;

pub(crate) use carryover::{judge_group, runs_needed};
pub(crate) use carryover_screen::fires;
pub(crate) use compare::{compare, from_estimate, log_estimate, paired_log_ratios, paired_medians, unpaired};
pub(crate) use levels::{LogEstimate, Modes, estimate, estimate_owned, modes, t_quantile};
pub(crate) use overall::geometric_mean;
pub(crate) use stability::assess;
pub(crate) use withhold::{detected, screen_clause, screened, sentence, who};
#[cfg(test)]
pub(crate) use {counts::compare_in, withhold::WITHHELD};

#[cfg(test)]
mod simulation;
#[cfg(test)]
mod tests;
