//! Who is fastest in one group (one operation at one parameter set), and
//! what the verdicts let a finding say about it.
//!
//! The fastest median is the winner only when the judge's verdict
//! (`judge::compare`, paired where the runs were interleaved, the rule of
//! every table) calls each other ok cell of the group `slower` than it. A
//! verdict needs an interval, so below 6 runs there is no winner, however
//! large the gap. Where the runner-up's verdict is `same`, the two are the
//! same within the noise band; where it is anything else, the answer is
//! `unknown`, and names the cells it leaves open — never one whose every
//! run was slower than every run of the fastest. Where only such cells are
//! left (three runs each, far apart), the finding describes both cells'
//! runs, "all 3 runs of a, 31.5–34.9 ms, below all 3 of b, 707–717 ms",
//! and still names no winner. A group whose fastest or runner-up has
//! unstable runs (`judge::stability`) concludes nothing from their medians:
//! its answer is `unstable`, unless every run of the fastest beat every run
//! of every other cell (and the verdicts agree), which no choice of mode
//! can undo.

use crate::base::metric::Metric;
use crate::base::text;
use crate::judge::judge_pair;
use crate::results::{AnalysisSettings, Cell, Ratio, SizeAnswer, SizeWinner, Verdict};

/// One group decided: the answer and the cells it looked at.
pub(crate) struct Decided<'r> {
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
pub(crate) fn ratio(slow: &Cell, fast: &Cell, settings: &AnalysisSettings) -> Option<Ratio> {
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
pub(crate) fn apart(fastest: &Cell, others: &[&Cell]) -> bool {
    let Some(slowest) = fastest.stats.as_ref().map(|s| s.max_ns) else {
        return false;
    };
    others
        .iter()
        .all(|c| c.stats.as_ref().is_some_and(|s| s.min_ns > slowest))
}

/// Where another cell stands against the fastest.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Standing {
    /// The verdict is `slower`.
    Confirmed,
    /// Not confirmed slower, yet every run slower than every run of the
    /// fastest: no verdict says so, but no reading of the runs makes it fastest.
    Outrun,
    /// Possibly the fastest.
    Open,
}

/// Another cell, its ratio to the fastest, and where it stands.
type Other<'r> = (&'r Cell, Option<Ratio>, Standing);

fn standing(fastest: &Cell, c: &Cell, r: &Option<Ratio>) -> Standing {
    if r.as_ref().and_then(|r| r.verdict) == Some(Verdict::Slower) {
        Standing::Confirmed
    } else if apart(fastest, &[c]) {
        Standing::Outrun
    } else {
        Standing::Open
    }
}

/// The answer for the ok cells among `cells` (at payload size `bytes`);
/// `None` with fewer than two.
pub(crate) fn decide<'r>(bytes: u64, cells: &[&'r Cell], settings: &AnalysisSettings) -> Option<Decided<'r>> {
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
    let others: Vec<Other> = ok[1..]
        .iter()
        .map(|c| {
            let r = ratio(c, fastest, settings);
            let at = standing(fastest, c, &r);
            (*c, r, at)
        })
        .collect();
    let every_run = !shaky.is_empty() && apart(fastest, &ok[1..]);
    let (answer, rests_on) = answer(&others, shaky.is_empty(), every_run);
    let (against, r, _) = others[rests_on].clone();
    let unknown = answer == SizeAnswer::Unknown;
    let names = |at: Standing| -> Vec<String> {
        let named = others
            .iter()
            .filter(|o| unknown && o.2 == at && o.0.implementation != against.implementation);
        named.map(|o| o.0.implementation.clone()).collect()
    };
    let mut behind_every_run = names(Standing::Outrun);
    if unknown && others[rests_on].2 == Standing::Outrun {
        behind_every_run.insert(0, against.implementation.clone());
    }
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
            also_unknown: names(Standing::Open),
            behind_every_run,
        },
        compared: [fastest, against],
        cells: ok,
    })
}

/// The answer over `others` (fastest first) and the index of the cell it
/// rests on: the runner-up, except for an unknown, which rests on the first
/// cell left open, else on the first outrun one (whose runs the finding
/// then describes).
fn answer(others: &[Other], stable: bool, every_run: bool) -> (SizeAnswer, usize) {
    let runner_up = others[0].1.as_ref().and_then(|r| r.verdict);
    if !stable && !every_run {
        return (SizeAnswer::Unstable, 0);
    }
    if runner_up == Some(Verdict::Same) && stable {
        return (SizeAnswer::Same, 0);
    }
    if others.iter().all(|o| o.2 == Standing::Confirmed) {
        return (SizeAnswer::Winner, 0);
    }
    let first = |at: Standing| others.iter().position(|o| o.2 == at);
    let rests_on = first(Standing::Open).or_else(|| first(Standing::Outrun)).unwrap_or(0);
    (SizeAnswer::Unknown, rests_on)
}

/// Two medians and their ratio: "4.91 against 6.02 ms: 1.27x [1.15, 1.35]";
/// without an interval, "(n=3: no interval below 6 runs)" takes its place.
pub(crate) fn pair_text(metric: Metric, fast_ns: f64, slow_ns: f64, r: Option<&Ratio>) -> String {
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
pub(crate) fn evidence_text(d: &Decided, metric: Metric) -> String {
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
pub(crate) fn sentence(d: &Decided, place: &str, noise: f64, metric: Metric) -> String {
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
        _ if contenders(d).len() == 1 => {
            let place = if place.is_empty() {
                String::new()
            } else {
                format!("{place}, ")
            };
            format!("{place}{}", outrun_text(d, metric))
        }
        _ if w.also_unknown.is_empty() => format!("unknown which of {a} and {b} {faster}{at} ({evidence})"),
        _ => format!(
            "unknown which {fastest}{at}: {} ({a} against {b}: {evidence})",
            text::or_list(&contenders(d))
        ),
    }
}

/// The cells an `unknown` answer leaves open, fastest first: the fastest,
/// the cell the answer rests on, and the others not confirmed slower —
/// never one whose every run was slower than every run of the fastest.
pub(crate) fn contenders(d: &Decided) -> Vec<String> {
    let w = &d.winner;
    let open = |n: &String| (*n == w.runner_up || w.also_unknown.contains(n)) && !w.behind_every_run.contains(n);
    d.cells
        .iter()
        .map(|c| &c.implementation)
        .filter(|n| **n == w.fastest || open(n))
        .cloned()
        .collect()
}

/// Where only cells behind in every run are left open, their runs
/// described, not judged: "all 3 runs of go-writer, 31.5–34.9 ms, below
/// all 3 of go-sdk, 54.7–60.0 ms, and of 6 others (n=3: no verdict below
/// 6 runs)".
fn outrun_text(d: &Decided, metric: Metric) -> String {
    let [fast, slow] = d.compared;
    let runs = |c: &Cell| c.stats.as_ref().map_or(0, |s| s.n);
    let range = |c: &Cell| {
        c.stats
            .as_ref()
            .map_or(String::new(), |s| text::figure_range(metric, s.min_ns, s.max_ns))
    };
    let more = d.winner.behind_every_run.len().saturating_sub(1);
    let more = match more {
        0 => String::new(),
        1 => ", and of 1 other".to_string(),
        k => format!(", and of {k} others"),
    };
    let why = match d.winner.ratio.as_ref() {
        Some(r) if r.ci_low.is_none() => format!("n={}: no verdict below 6 runs", r.n),
        _ => format!("no verdict: {}", evidence_text(d, metric)),
    };
    format!(
        "all {} runs of {}, {}, below all {} of {}, {}{more} ({why})",
        runs(fast),
        fast.implementation,
        range(fast),
        runs(slow),
        slow.implementation,
        range(slow)
    )
}
