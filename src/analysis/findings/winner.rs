//! Who is fastest in one group (one operation at one parameter set), and
//! what the verdicts let a finding say about it.
//!
//! The fastest median is the winner only when the judge's verdict
//! (`judge::compare`, paired where the runs were interleaved, the rule of
//! every table) calls each other ok cell of the group `slower` than it. A
//! verdict needs an interval, so below 6 runs there is no winner, however
//! large the gap. Where the runner-up's verdict is `same`, the two are the
//! same within the noise band; where it is anything else, the answer is
//! `unknown`. A group whose fastest or runner-up has unstable runs
//! (`judge::stability`) concludes nothing from their medians: its answer
//! is `unstable`, unless every run of the fastest beat every run of every
//! other cell (and the verdicts agree), which no choice of mode can undo.

use crate::base::metric::Metric;
use crate::base::text;
use crate::judge::pair::judge_pair;
use crate::results::{AnalysisSettings, Cell, Ratio, SizeAnswer, SizeWinner, Verdict};

/// One group decided: the answer and the cells it looked at.
pub struct Decided<'r> {
    pub bytes: u64,
    pub winner: SizeWinner,
    /// The fastest and the cell the answer rests on.
    pub compared: [&'r Cell; 2],
    /// Every ok cell, fastest first.
    pub cells: Vec<&'r Cell>,
}

/// `slow`'s time over `fast`'s with the judge's verdict: paired where
/// their runs took turns; where either cell's time depends on the run before
/// it, called only if the runs after each predecessor give the verdict on
/// their own (`judge::withhold`, the tables' rule).
pub fn ratio(slow: &Cell, fast: &Cell, settings: &AnalysisSettings) -> Option<Ratio> {
    let c = judge_pair(Metric::Wall, slow, fast, settings)?.comparison;
    Some(Ratio {
        ratio: c.ratio,
        ci_low: c.ci_low,
        ci_high: c.ci_high,
        paired: c.paired,
        confirmed: c.verdict == Verdict::Slower,
        verdict: Some(c.verdict),
        n: c.n,
    })
}

/// Whether every run of `fastest` was faster than every run of `others`.
pub fn apart(fastest: &Cell, others: &[&Cell]) -> bool {
    let Some(slowest) = fastest.stats.as_ref().map(|s| s.max_ns) else {
        return false;
    };
    others
        .iter()
        .all(|c| c.stats.as_ref().is_some_and(|s| s.min_ns > slowest))
}

/// The answer for the ok cells among `cells` (at payload size `bytes`);
/// `None` with fewer than two.
pub fn decide<'r>(bytes: u64, cells: &[&'r Cell], settings: &AnalysisSettings) -> Option<Decided<'r>> {
    let mut ok: Vec<&Cell> = cells.iter().copied().filter(|c| c.stats.is_some()).collect();
    if ok.len() < 2 {
        return None;
    }
    let median = |c: &Cell| c.stats.as_ref().map_or(f64::MAX, |s| s.median_ns);
    ok.sort_by(|a, b| median(a).total_cmp(&median(b)));
    let fastest = ok[0];
    let shaky: Vec<String> = ok[..2]
        .iter()
        .filter(|c| c.is_unstable())
        .map(|c| c.implementation.clone())
        .collect();
    // Each other cell against the fastest, once: the answer and the names it leaves open read them.
    let others: Vec<(&Cell, Option<Ratio>)> = ok[1..].iter().map(|c| (*c, ratio(c, fastest, settings))).collect();
    let verdict = |r: &Option<Ratio>| r.as_ref().and_then(|r| r.verdict);
    let behind = |(_, r): &&(&Cell, Option<Ratio>)| verdict(r) == Some(Verdict::Slower);
    let (mut against, mut r) = others[0].clone();
    let every_run = !shaky.is_empty() && apart(fastest, &ok[1..]);
    let answer = if !shaky.is_empty() && !every_run {
        SizeAnswer::Unstable
    } else {
        match verdict(&r) {
            Some(Verdict::Same) if shaky.is_empty() => SizeAnswer::Same,
            Some(Verdict::Slower) => {
                // Ahead of the runner-up is not ahead of all: each other cell must be confirmed slower too.
                match others[1..].iter().find(|o| !behind(o)) {
                    Some((c, rc)) => {
                        (against, r) = (*c, rc.clone());
                        SizeAnswer::Unknown
                    }
                    None => SizeAnswer::Winner,
                }
            }
            _ => SizeAnswer::Unknown,
        }
    };
    let also_unknown = if answer == SizeAnswer::Unknown {
        others
            .iter()
            .filter(|o| !behind(o) && o.0.implementation != against.implementation)
            .map(|(c, _)| c.implementation.clone())
            .collect()
    } else {
        Vec::new()
    };
    Some(Decided {
        bytes,
        winner: SizeWinner {
            payload_bytes: bytes,
            implementation: (answer == SizeAnswer::Winner).then(|| fastest.implementation.clone()),
            fastest: fastest.implementation.clone(),
            runner_up: against.implementation.clone(),
            ratio: r,
            answer,
            every_run: every_run && answer == SizeAnswer::Winner,
            unstable: shaky,
            also_unknown,
        },
        compared: [fastest, against],
        cells: ok,
    })
}

/// Two medians and their ratio: "4.91 against 6.02 ms: 1.27x [1.15, 1.35]";
/// without an interval, "(n=3: no interval below 6 runs)" takes its place.
pub fn pair_text(metric: Metric, fast_ns: f64, slow_ns: f64, r: Option<&Ratio>) -> String {
    let mut out = text::figure_pair(metric, fast_ns, slow_ns);
    if let Some(r) = r {
        out.push_str(&format!(": {}", text::ratio(r.ratio)));
        match (r.ci_low, r.ci_high) {
            (Some(lo), Some(hi)) => {
                let [_, lo, hi] = text::numbers([r.ratio, lo, hi]);
                out.push_str(&format!(" [{lo}, {hi}]"));
            }
            _ => out.push_str(&format!(", n={}: no interval below 6 runs", r.n)),
        }
    }
    out
}

/// The medians of a decided group's two compared cells with their ratio;
/// for a winner over unstable runs, both cells' ranges instead: "every
/// run: 8.71–16.4 µs against 700–764 µs".
pub fn evidence_text(d: &Decided, metric: Metric) -> String {
    let [fast, slow] = d.compared;
    if d.winner.every_run {
        let range = |c: &Cell| {
            c.stats
                .as_ref()
                .map_or(String::new(), |s| text::figure_range(metric, s.min_ns, s.max_ns))
        };
        return format!("every run: {} against {}", range(fast), range(slow));
    }
    let median = |c: &Cell| c.stats.as_ref().map_or(0.0, |s| s.median_ns);
    pair_text(metric, median(fast), median(slow), d.winner.ratio.as_ref())
}

/// What a group's answer is, in words, after its place ("at 1 MB", or
/// nothing for a group without sizes): "a is fastest, ahead of b (…)",
/// "a and b are the same within ±1% (…)", "unknown which of a and b is
/// faster (…)", "unknown which is fastest at 1 MB: a, c or b (a against
/// b: …)", "unknown which is fastest: the runs of a are unstable";
/// in `metric`'s words ("a needs the fewest instructions, …").
pub fn sentence(d: &Decided, place: &str, noise: f64, metric: Metric) -> String {
    let w = &d.winner;
    let (a, b) = (&w.fastest, &w.runner_up);
    let at = if place.is_empty() {
        String::new()
    } else {
        format!(" {place}")
    };
    let evidence = evidence_text(d, metric);
    let (fastest, faster) = (metric.is_fastest(), metric.is_faster());
    match w.answer {
        SizeAnswer::Winner => format!("{a} {fastest}{at}, ahead of {b} ({evidence})"),
        SizeAnswer::Same => format!(
            "{a} and {b} are the same within ±{}{at} ({evidence})",
            text::percent(noise)
        ),
        SizeAnswer::Unstable => format!(
            "unknown which {fastest}{at}: the runs of {} are unstable",
            text::and_list(&w.unstable)
        ),
        _ if w.also_unknown.is_empty() => format!("unknown which of {a} and {b} {faster}{at} ({evidence})"),
        _ => format!(
            "unknown which {fastest}{at}: {} ({a} against {b}: {evidence})",
            text::or_list(&contenders(d))
        ),
    }
}

/// The cells an `unknown` answer leaves open, fastest first: the fastest,
/// the cell the answer rests on, and the others not confirmed slower.
pub fn contenders(d: &Decided) -> Vec<String> {
    let w = &d.winner;
    d.cells
        .iter()
        .map(|c| &c.implementation)
        .filter(|n| **n == w.fastest || **n == w.runner_up || w.also_unknown.contains(n))
        .cloned()
        .collect()
}
