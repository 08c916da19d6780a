//! The carry-over screen: a decision at run counts too small for the test
//! of `judge::carryover`, which needs six or more runs after each
//! predecessor and an interval at a shared confidence (24 runs for three
//! implementations). At the default ten runs of three implementations in
//! the balanced order, each cell has three or four runs after itself and
//! six or seven after others, and that test is never made; yet a program
//! whose system time is ten times higher after another program has every
//! run after others slower than every run after itself, which says enough.
//!
//! The rule. For each cell, in time per call and in system time (when
//! recorded), it asks whether every run after another implementation is
//! slower than every run after itself (strictly: a tie is no separation).
//! When the predecessor changes nothing, the runs are exchangeable and the
//! k runs after itself are any k of the n, so they are the k fastest with
//! chance exactly 1 / C(n, k) (1 in 120 for 3 of 10, 1 in 210 for 4 of 10).
//! The question is one-sided on purpose: what a run leaves behind (memory
//! to reclaim, caches evicted, a hot CPU) slows the next run, and a run
//! after itself finds its own caches warm; a predecessor that speeds a cell
//! up is left to the full test. The screen fires when that chance, times
//! the group's looks (metrics screened × cells, counted before any time is
//! looked at), is at most 1 − confidence (Bonferroni).
//!
//! False flags. For identical implementations the chance that any look of
//! a group fires is at most the sum of its looks' chances, so at most
//! 1 − confidence: 5% at the default. Three implementations at ten runs
//! give six looks of 1/120 or 1/210, which sum to at most 6/120 = 0.05 (the
//! jq case fires at exactly that bound); the two metrics of one cell move
//! together on a real machine, so the rate is lower. Six implementations
//! at ten runs have one or two runs after themselves (10 or 45 ways), which
//! twelve looks can never share out to 5%: the screen cannot fire there,
//! and says so by leaving `fired` false.

use crate::base::outcome::Outcome;
use crate::results::{Cell, Screen, ScreenMetric};

/// A cell's runs after itself and after another implementation (indices).
struct Sides {
    alone: Vec<usize>,
    turns: Vec<usize>,
}

/// The sides of an ok cell with its order recorded for every run and at
/// least one run on each side; `None` otherwise.
fn sides(cell: &Cell) -> Option<Sides> {
    let order = cell.samples.order.as_ref()?;
    if cell.outcome != Outcome::Ok || order.len() != cell.samples.wall_ns.len() {
        return None;
    }
    let (mut alone, mut turns) = (Vec::new(), Vec::new());
    for i in 0..order.len() {
        match order.after_name(i) {
            Some(name) if name == cell.implementation => alone.push(i),
            Some(_) => turns.push(i),
            None => {}
        }
    }
    (!alone.is_empty() && !turns.is_empty()).then_some(Sides { alone, turns })
}

/// The metrics the cell can be screened in, from its counts alone: time
/// per call, and system time when every run recorded one (process cells).
pub(super) fn metrics(cell: &Cell) -> Vec<ScreenMetric> {
    if sides(cell).is_none() {
        return Vec::new();
    }
    let mut out = vec![ScreenMetric::Wall];
    if cell.samples.sys_ns.len() == cell.samples.wall_ns.len() {
        out.push(ScreenMetric::Sys);
    }
    out
}

/// C(n, k), in floating point (exact far past any run count).
pub(super) fn choose(n: usize, k: usize) -> f64 {
    let k = k.min(n.saturating_sub(k));
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Whether every value of `slow` lies strictly above every value of `fast`.
pub(super) fn apart(fast: &[f64], slow: &[f64]) -> bool {
    let top = fast.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let bottom = slow.iter().copied().fold(f64::INFINITY, f64::min);
    !fast.is_empty() && !slow.is_empty() && top < bottom
}

/// Whether `chance` shared over `looks` stays within `alpha` (a hair of
/// slack, so that 6 × 1/120 counts as the 0.05 it is).
pub(crate) fn fires(chance: f64, looks: usize, alpha: f64) -> bool {
    chance * looks as f64 <= alpha * (1.0 + 1e-9)
}

/// The values of `metric` at the runs `at`.
fn values(cell: &Cell, metric: ScreenMetric, at: &[usize]) -> Vec<f64> {
    match metric {
        ScreenMetric::Wall => {
            let per_call = cell.samples.per_call_ns();
            at.iter().filter_map(|i| per_call.get(*i).copied()).collect()
        }
        ScreenMetric::Sys => at
            .iter()
            .filter_map(|i| cell.samples.sys_ns.get(*i))
            .map(|s| s as f64)
            .collect(),
    }
}

/// The screen of `cell`, its chance shared over the group's `looks` at
/// `alpha` (1 − confidence); `None` for a cell without runs both after
/// itself and after others.
pub(super) fn screen(cell: &Cell, looks: usize, alpha: f64) -> Option<Screen> {
    let sides = sides(cell)?;
    let apart_in: Vec<ScreenMetric> = metrics(cell)
        .into_iter()
        .filter(|m| apart(&values(cell, *m, &sides.alone), &values(cell, *m, &sides.turns)))
        .collect();
    let n = sides.alone.len() + sides.turns.len();
    let chance = 1.0 / choose(n, sides.alone.len());
    let looks = looks.max(1);
    Some(Screen {
        fired: !apart_in.is_empty() && fires(chance, looks, alpha),
        apart_in,
        chance,
        looks,
    })
}
