//! Carry-over: what one run leaves behind for the next (memory the kernel
//! must reclaim or the host hand back, caches evicted, a hot CPU). Taking
//! turns cancels drift but charges that aftermath to whoever runs next, and
//! a paired interval then confirms a difference that belongs to the order,
//! not to the code. From the recorded order (`results::RunOrder`) this
//! module splits each cell's runs by the implementation that ran just
//! before them and tests whether the predecessor changes the time.
//!
//! The tests are planned from the counts alone, before any time is looked at:
//! - when the cell ran after itself at least `MIN_RUNS` times (the balanced
//!   order gives that): the runs after each other implementation with
//!   `MIN_RUNS` runs against the runs alone, one test per predecessor (a
//!   pooled "in turns" median would sit between two modes when only some
//!   predecessors leave something behind);
//! - otherwise (the rotation never lets an implementation follow itself
//!   from three on): each other predecessor with `MIN_RUNS` runs against all
//!   the rest, one test when there are only two predecessors.
//!
//! A test compares two medians of log time per call, each with its
//! order-statistic interval over the segments its runs came from
//! (`levels::estimate`), as two independent estimates (`compare::unpaired`),
//! and calls an effect as every verdict is called (`verdict::decide`): an
//! interval clear of no change and a ratio beyond the noise floor. The tests
//! of one group share the confidence level (Bonferroni), so a group of
//! identical implementations is flagged at most 1 − confidence of the time.
//!
//! When tests find an effect, the predecessors whose tests called it on the
//! same side as the strongest are named, and the figure quoted is their runs
//! pooled against the reference.
//!
//! Below that (no test, or none with an interval: the default ten runs),
//! `judge::carryover_screen` decides instead, and when it fires the figure
//! quoted is the runs after every other implementation against the runs
//! after itself.

use crate::base::outcome::Outcome;
use crate::judge::carryover_screen;
use crate::judge::compare::unpaired;
use crate::judge::levels::{self, LogEstimate};
use crate::judge::verdict;
use crate::results::{AnalysisSettings, CarryOver, Cell, Effect, RunsAfter, Verdict};
use crate::stats::summary::median_of_sorted;

/// Fewest runs on each side of a test.
pub(super) const MIN_RUNS: usize = 6;

/// A planned test: runs after `after` against runs after `against`
/// (indices into the order's implementations).
struct Test {
    after: Vec<usize>,
    against: Vec<usize>,
}

/// A cell's measured runs by predecessor.
struct Split<'c> {
    cell: &'c Cell,
    names: &'c [String],
    /// The cell's own implementation, as an index into `names`.
    me: Option<usize>,
    /// Run indices by predecessor (index into `names`).
    runs: Vec<Vec<usize>>,
    per_call: Vec<f64>,
}

fn median(mut xs: Vec<f64>) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_unstable_by(f64::total_cmp);
    Some(median_of_sorted(&xs))
}

impl<'c> Split<'c> {
    /// `None` unless the cell is ok, has its order recorded for every run,
    /// and every time is positive.
    fn of(cell: &'c Cell) -> Option<Split<'c>> {
        let order = cell.samples.order.as_ref()?;
        let per_call = cell.samples.per_call_ns();
        if cell.outcome != Outcome::Ok || order.len() != per_call.len() || per_call.iter().any(|x| *x <= 0.0) {
            return None;
        }
        let names = order.implementations.as_slice();
        let mut runs = vec![Vec::new(); names.len()];
        for (i, a) in order.after.iter().enumerate() {
            if let Some(list) = usize::try_from(*a).ok().and_then(|a| runs.get_mut(a)) {
                list.push(i);
            }
        }
        Some(Split {
            cell,
            names,
            me: names.iter().position(|n| *n == cell.implementation),
            runs,
            per_call,
        })
    }

    fn count(&self, preds: &[usize]) -> usize {
        preds.iter().map(|p| self.runs[*p].len()).sum()
    }

    /// The predecessors it ran after, and those other than itself.
    fn present(&self) -> (Vec<usize>, Vec<usize>) {
        let present: Vec<usize> = (0..self.names.len()).filter(|p| !self.runs[*p].is_empty()).collect();
        let others = present.iter().copied().filter(|p| Some(*p) != self.me).collect();
        (present, others)
    }

    /// The tests, from the counts alone (see the module header).
    fn plan(&self) -> Vec<Test> {
        let (present, others) = self.present();
        if let Some(me) = self.me.filter(|me| self.runs[*me].len() >= MIN_RUNS) {
            return others
                .iter()
                .filter(|p| self.runs[**p].len() >= MIN_RUNS)
                .map(|p| Test {
                    after: vec![*p],
                    against: vec![me],
                })
                .collect();
        }
        let mut tests = Vec::new();
        for &p in &others {
            let rest: Vec<usize> = present.iter().copied().filter(|q| *q != p).collect();
            if self.runs[p].len() < MIN_RUNS || self.count(&rest) < MIN_RUNS {
                continue;
            }
            tests.push(Test {
                after: vec![p],
                against: rest,
            });
            // With two predecessors, one against the other is the other against the one.
            if present.len() == 2 {
                break;
            }
        }
        tests
    }

    /// The runs after `preds`, in run order.
    fn indices(&self, preds: &[usize]) -> Vec<usize> {
        let mut at: Vec<usize> = preds.iter().flat_map(|p| self.runs[*p].iter().copied()).collect();
        at.sort_unstable();
        at
    }

    /// The median log time per call of the runs after `preds`, with its
    /// interval at `level` over the segments they came from.
    fn estimate(&self, preds: &[usize], level: f64) -> Option<LogEstimate> {
        let at = self.indices(preds);
        let values: Vec<f64> = at.iter().map(|i| self.per_call[*i].ln()).collect();
        let lengths: Vec<usize> = self
            .cell
            .segment_spans()
            .iter()
            .map(|span| at.iter().filter(|i| span.runs.contains(i)).count())
            .filter(|n| *n > 0)
            .collect();
        levels::estimate(&values, &lengths, level)
    }

    fn median_sys_ns(&self, at: &[usize]) -> Option<f64> {
        let sys = &self.cell.samples.sys_ns;
        if sys.len() != self.per_call.len() {
            return None;
        }
        median(at.iter().filter_map(|i| sys.get(*i)).map(|s| s as f64).collect())
    }

    /// The figures of the runs after `preds`; `None` without any.
    fn figures(&self, preds: &[usize], implementation: Option<String>) -> Option<RunsAfter> {
        let at = self.indices(preds);
        Some(RunsAfter {
            implementation,
            runs: at.len(),
            median_ns: median(at.iter().map(|i| self.per_call[*i]).collect())?,
            median_sys_ns: self.median_sys_ns(&at),
        })
    }

    fn test_estimate(&self, t: &Test, level: f64) -> Option<LogEstimate> {
        Some(unpaired(
            &self.estimate(&t.after, level)?,
            &self.estimate(&t.against, level)?,
        ))
    }

    fn effect(&self, after: &[usize], against: &[usize], level: f64) -> Option<Effect> {
        let est = unpaired(&self.estimate(after, level)?, &self.estimate(against, level)?);
        let names = |preds: &[usize]| preds.iter().map(|p| self.names[*p].clone()).collect();
        let sys_delta_ns = self
            .median_sys_ns(&self.indices(after))
            .zip(self.median_sys_ns(&self.indices(against)))
            .map(|(a, b)| a - b);
        Some(Effect {
            after: names(after),
            against: names(against),
            ratio: est.center.exp(),
            ci_low: est.interval.map(|i| i.0.exp()),
            ci_high: est.interval.map(|i| i.1.exp()),
            sys_delta_ns,
        })
    }

    fn judge(&self, tests: &[Test], level: f64, band: f64) -> CarryOver {
        let called: Vec<(&Test, LogEstimate)> = tests
            .iter()
            .filter_map(|t| {
                let est = self.test_estimate(t, level)?;
                matches!(verdict::decide(&est, band), Verdict::Slower | Verdict::Faster).then_some((t, est))
            })
            .collect();
        let strongest = called
            .iter()
            .max_by(|a, b| a.1.center.abs().total_cmp(&b.1.center.abs()));
        let effect = match strongest {
            // Every predecessor whose test called an effect on the same side
            // as the strongest, against the same runs.
            Some((t, est)) => {
                let mut after: Vec<usize> = called
                    .iter()
                    .filter(|(u, e)| u.against == t.against && e.center.signum() == est.center.signum())
                    .flat_map(|(u, _)| u.after.iter().copied())
                    .collect();
                after.sort_unstable();
                self.effect(&after, &t.against, level)
            }
            None => tests.first().and_then(|t| self.effect(&t.after, &t.against, level)),
        };
        let (_, others) = self.present();
        CarryOver {
            alone: self.me.and_then(|me| self.figures(&[me], None)),
            in_turns: self.figures(&others, None),
            after: (0..self.names.len())
                .filter_map(|p| self.figures(&[p], Some(self.names[p].clone())))
                .collect(),
            effect,
            detected: strongest.is_some(),
            confidence: level,
            screen: None,
        }
    }

    /// `co`, screened when its test gave no interval: the screen's chance
    /// shared over the group's `looks` at `alpha` (1 − confidence).
    fn screened(&self, mut co: CarryOver, looks: usize, alpha: f64) -> CarryOver {
        let tested = co
            .effect
            .as_ref()
            .is_some_and(|e| e.ci_low.is_some() && e.ci_high.is_some());
        if tested {
            return co;
        }
        co.screen = carryover_screen::screen(self.cell, looks, alpha);
        if let (Some(me), true) = (self.me, co.screen.as_ref().is_some_and(|s| s.fired)) {
            let (_, others) = self.present();
            co.effect = self.effect(&others, &[me], co.confidence);
            co.detected = true;
        }
        co
    }
}

/// What the run before did to each of a group's cells (in the order given;
/// `None` for a cell without a recorded order or not ok). The group's tests
/// share the analysis's confidence, and so do its screens' looks.
pub(crate) fn judge_group(cells: &[&Cell], settings: &AnalysisSettings) -> Vec<Option<CarryOver>> {
    // A cell whose runs only ever followed its own has nothing to compare
    // (`versus exec` of one command): no split, whose lists would cost tens
    // of bytes a run at 100,000 runs to say so.
    let splits: Vec<Option<Split>> = cells
        .iter()
        .map(|c| others_ran(c).then(|| Split::of(c)).flatten())
        .collect();
    let plans: Vec<Vec<Test>> = splits
        .iter()
        .map(|s| s.as_ref().map_or_else(Vec::new, Split::plan))
        .collect();
    let tests = plans.iter().map(Vec::len).sum::<usize>().max(1);
    let level = 1.0 - (1.0 - settings.confidence) / tests as f64;
    let band = (1.0 + settings.noise).ln();
    // The screen's looks, counted before any time is looked at.
    let looks: usize = splits
        .iter()
        .flatten()
        .map(|s| carryover_screen::metrics(s.cell).len())
        .sum();
    let alpha = 1.0 - settings.confidence;
    splits
        .iter()
        .zip(&plans)
        .map(|(s, plan)| s.as_ref().map(|s| s.screened(s.judge(plan, level, band), looks, alpha)))
        .collect()
}

/// Whether the cell's recorded order names an implementation besides its own.
fn others_ran(cell: &Cell) -> bool {
    cell.samples
        .order
        .as_ref()
        .is_some_and(|o| o.implementations.iter().any(|n| *n != cell.implementation))
}

/// A cell's runs in the regimes its carry-over separates, each as a median
/// log time per call with its interval at `level`: the runs after the
/// predecessors that change its time and the runs after the others, when a
/// carry-over was detected; all its runs otherwise. `None` without a
/// recorded order (or too few runs for an estimate).
pub(super) fn regimes(cell: &Cell, level: f64) -> Option<Vec<LogEstimate>> {
    let split = Split::of(cell)?;
    let co = cell
        .stats
        .as_ref()
        .and_then(|s| s.carry_over.as_ref())
        .filter(|c| c.detected);
    let Some(effect) = co.and_then(|c| c.effect.as_ref()) else {
        let all: Vec<usize> = (0..split.names.len()).collect();
        return Some(vec![split.estimate(&all, level)?]);
    };
    let index = |names: &[String]| -> Vec<usize> {
        names
            .iter()
            .filter_map(|n| split.names.iter().position(|m| m == n))
            .collect()
    };
    Some(vec![
        split.estimate(&index(&effect.after), level)?,
        split.estimate(&index(&effect.against), level)?,
    ])
}

/// The runs (time per call) behind each of `regimes`, in the same order.
pub(super) fn regime_runs(cell: &Cell) -> Option<Vec<Vec<f64>>> {
    let split = Split::of(cell)?;
    let values = |preds: &[usize]| -> Vec<f64> { split.indices(preds).iter().map(|i| split.per_call[*i]).collect() };
    let co = cell
        .stats
        .as_ref()
        .and_then(|s| s.carry_over.as_ref())
        .filter(|c| c.detected);
    let Some(effect) = co.and_then(|c| c.effect.as_ref()) else {
        let all: Vec<usize> = (0..split.names.len()).collect();
        return Some(vec![values(&all)]);
    };
    let index = |names: &[String]| -> Vec<usize> {
        names
            .iter()
            .filter_map(|n| split.names.iter().position(|m| m == n))
            .collect()
    };
    Some(vec![values(&index(&effect.after)), values(&index(&effect.against))])
}

/// Runs needed after each predecessor for a test to have an interval, in a
/// group where each of `implementations` runs after each (the balanced
/// order): every cell tests each other predecessor against itself, and the
/// group's tests share the confidence.
pub(crate) fn runs_needed(implementations: usize, confidence: f64) -> usize {
    let tests = (implementations * implementations.saturating_sub(1)).max(1);
    let level = 1.0 - (1.0 - confidence) / tests as f64;
    crate::stats::order::min_samples(level).max(MIN_RUNS)
}

/// Whether two cells' runs were taken in turns, so run i of each can be
/// paired: not when both recorded an order in which every run had a round
/// of its own (`blocked`, hyperfine's order). Cells without a recorded
/// order were interleaved.
pub(super) fn taken_in_turns(a: &Cell, b: &Cell) -> bool {
    let blocked = |c: &Cell| {
        c.samples
            .order
            .as_ref()
            .is_some_and(|o| !o.is_empty() && o.position.iter().all(|p| *p == 0))
    };
    !(blocked(a) && blocked(b))
}
