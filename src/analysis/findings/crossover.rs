//! Who wins where along a series of payload sizes. Each size is decided by
//! `winner::decide`: a winner only where the verdicts confirm it, "the
//! same" where the runner-up's verdict is `same`, "unknown" otherwise, and
//! nothing concluded from unstable runs. Neighbouring sizes that say the
//! same form a segment, and the series reads as its segments in size
//! order: "sun is fastest from 100 KB to 1 MB (…); bc at 5 MB (…); sun from
//! 10 MB to 100 MB (…)". A statement that a winner holds "up to" or "from" a
//! size is never made: a segment names exactly the sizes it covers, so two
//! segments cannot contradict each other or the table.
//!
//! Where the confirmed winner changes between two segments (sizes with no
//! confirmed winner between them are named), that is a crossover, with
//! both implementations' medians at both sizes as evidence and their
//! ratios, both confirmed by construction; where both have cost lines that
//! hold (`cost`), the lines' crossing, (fixed_B − fixed_A) / (per_byte_A −
//! per_byte_B), estimates the size, with an interval from the bootstrap
//! lines, if it lies between the two sizes. A series whose confirmed
//! winner never changes gets a `winner` finding instead.

use crate::analysis::findings::cost::Fitted;
use crate::analysis::findings::series::Series;
use crate::analysis::findings::winner::{self, Decided, decide};
use crate::base::metric::Metric;
use crate::base::text;
use crate::results::{AnalysisSettings, Cell, Crossover, Evidence, Finding, FindingKind, SizeAnswer, SizeSegment};
use crate::stats::bootstrap;
use crate::stats::linear::Line;

/// Share of bootstrap crossings that must be usable (finite, positive) for
/// the estimate to get an interval.
const USABLE_CROSSINGS: f64 = 0.9;

/// The winner or crossover finding of one series (none below two decided sizes).
pub(crate) fn findings(series: &Series, fits: &[Fitted], settings: &AnalysisSettings) -> Vec<Finding> {
    let sizes: Vec<Decided> = series
        .by_size()
        .into_iter()
        .filter_map(|(bytes, cells)| decide(bytes, &cells, settings))
        .collect();
    if sizes.len() < 2 {
        return vec![];
    }
    let segments = segments(&sizes);
    let crossovers: Vec<Crossover> = segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.answer == SizeAnswer::Winner)
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0].1.implementation != w[1].1.implementation)
        .map(|w| crossover(&sizes, &segments[w[0].0..=w[1].0], fits, settings))
        .collect();
    let mut parts: Vec<String> = segments
        .iter()
        .map(|s| phrase(s, &sizes, settings.noise, series.metric))
        .collect();
    for x in &crossovers {
        if let (Some(at), lo, hi) = (x.estimated_bytes, x.estimated_ci_low_bytes, x.estimated_ci_high_bytes) {
            parts.push(crossing_text(x, at, lo.zip(hi)));
        }
    }
    let kind = if crossovers.is_empty() {
        FindingKind::Winner
    } else {
        FindingKind::Crossover
    };
    let cells = sizes
        .iter()
        .flat_map(|d| d.compared.iter().map(|c| c.id.clone()))
        .collect();
    let mut f = Finding::new(kind, series.operation, series.params.clone(), parts.join("; "), cells);
    let winners: Vec<&String> = segments.iter().filter_map(|s| s.implementation.as_ref()).collect();
    if winners.windows(2).all(|w| w[0] == w[1]) {
        f.implementation = winners.first().map(|w| (*w).clone());
    }
    f.winners = Some(sizes.iter().map(|d| d.winner.clone()).collect());
    f.crossover = crossovers.first().cloned();
    f.crossovers = crossovers;
    f.segments = segments;
    vec![f]
}

/// Neighbouring sizes with the same answer and winner, in size order.
fn segments(sizes: &[Decided]) -> Vec<SizeSegment> {
    let mut out: Vec<SizeSegment> = Vec::new();
    for d in sizes {
        let w = &d.winner;
        match out.last_mut() {
            Some(s) if s.answer == w.answer && s.implementation == w.implementation => s.payload_bytes.push(d.bytes),
            _ => out.push(SizeSegment {
                answer: w.answer,
                implementation: w.implementation.clone(),
                payload_bytes: vec![d.bytes],
            }),
        }
    }
    out
}

/// "at 5 MB", "from 100 KB to 1 MB", "at every size, 1 KB to 100 MB".
fn place(bytes: &[u64], all: &[u64]) -> String {
    match bytes {
        [one] => format!("at {}", text::payload(*one)),
        [first, .., last] if bytes.len() == all.len() => {
            format!("at every size, {} to {}", text::payload(*first), text::payload(*last))
        }
        [first, .., last] => format!("from {} to {}", text::payload(*first), text::payload(*last)),
        [] => String::new(),
    }
}

/// One segment in words.
fn phrase(s: &SizeSegment, sizes: &[Decided], noise: f64, metric: Metric) -> String {
    let all: Vec<u64> = sizes.iter().map(|d| d.bytes).collect();
    let inside: Vec<&Decided> = sizes.iter().filter(|d| s.payload_bytes.contains(&d.bytes)).collect();
    let where_ = place(&s.payload_bytes, &all);
    if let [one] = inside.as_slice() {
        return winner::sentence(one, &where_, noise, metric);
    }
    match (s.answer, &s.implementation) {
        (SizeAnswer::Winner, Some(name)) => {
            // The smallest lead in the segment, with its interval: the evidence that it holds throughout.
            let closest = inside
                .iter()
                .min_by(|a, b| margin(a).total_cmp(&margin(b)))
                .expect("a segment has sizes");
            format!(
                "{name} {} {where_} (closest at {}, ahead of {}: {})",
                metric.is_fastest(),
                text::payload(closest.bytes),
                closest.winner.runner_up,
                winner::evidence_text(closest, metric)
            )
        }
        (SizeAnswer::Same, _) => pairs(&inside)
            .iter()
            .map(|(names, at)| {
                format!(
                    "{} are the same within ±{} at {}",
                    text::and_list(names),
                    text::percent(noise),
                    text::sizes(at, &all)
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
        (SizeAnswer::Unstable, _) => {
            let mut unique: Vec<String> = Vec::new();
            for n in inside.iter().flat_map(|d| d.winner.unstable.iter()) {
                if !unique.contains(n) {
                    unique.push(n.clone());
                }
            }
            format!(
                "unknown which {} {where_}: the runs of {} are unstable",
                metric.is_fastest(),
                text::and_list(&unique)
            )
        }
        _ => {
            // Sizes where only cells behind in every run are left open are
            // described one by one; the others list what each leaves open.
            let (described, open): (Vec<&Decided>, Vec<&Decided>) =
                inside.iter().partition(|d| winner::contenders(d).len() == 1);
            let said: Vec<String> = pairs(&open)
                .iter()
                .map(|(names, at)| format!("{} ({})", text::sizes(at, &all), text::or_list(names)))
                .collect();
            let mut parts: Vec<String> = Vec::new();
            if !said.is_empty() {
                parts.push(format!("unknown which {} at {}", metric.is_fastest(), said.join(", ")));
            }
            parts.extend(
                described
                    .iter()
                    .map(|d| winner::sentence(d, &format!("at {}", text::payload(d.bytes)), noise, metric)),
            );
            parts.join("; ")
        }
    }
}

/// The winner's lead at one size: its ratio to the runner-up ("closest
/// at" names the size where the ratio is smallest, as the tables show it).
fn margin(d: &Decided) -> f64 {
    d.winner.ratio.as_ref().map_or(f64::MAX, |r| r.ratio)
}

/// The cells each size compared (the fastest and its runner-up, or every
/// cell an unknown leaves open), first seen first, with their sizes; sizes
/// that compared the same cells in another order share an entry.
fn pairs(inside: &[&Decided]) -> Vec<(Vec<String>, Vec<u64>)> {
    let sorted = |names: &[String]| {
        let mut s = names.to_vec();
        s.sort();
        s
    };
    let mut out: Vec<(Vec<String>, Vec<u64>)> = Vec::new();
    for d in inside {
        let names = winner::contenders(d);
        let key = sorted(&names);
        match out.iter_mut().find(|(k, _)| sorted(k) == key) {
            Some((_, at)) => at.push(d.bytes),
            None => out.push((names, vec![d.bytes])),
        }
    }
    out
}

/// "the cost lines of rage and age cross near 4.29 MB [3.67, 4.91 MB]".
fn crossing_text(x: &Crossover, at: f64, interval: Option<(f64, f64)>) -> String {
    let mut out = format!(
        "the cost lines of {} and {} cross near {}",
        x.before,
        x.after,
        text::size_f(at)
    );
    if let Some((lo, hi)) = interval {
        let range = text::size_range(lo.round() as u64, hi.round() as u64).replacen('–', ", ", 1);
        out.push_str(&format!(" [{range}]"));
    }
    out
}

/// A cell's median as evidence; none from an unstable cell (its median is
/// one draw of which mode won), except at a size won in every run.
fn evidence<'r>(d: &Decided<'r>, implementation: &str) -> Option<(Evidence, &'r Cell)> {
    let c = *d.cells.iter().find(|c| c.implementation == implementation)?;
    if crate::analysis::findings::unstable::is_unstable(c) && !d.winner.every_run {
        return None;
    }
    let s = c.stats.as_ref()?;
    let e = Evidence {
        cell: c.id.clone(),
        implementation: implementation.to_string(),
        payload_bytes: d.bytes,
        median_ns: s.median_ns,
        ci_low_ns: s.ci_low_ns,
        ci_high_ns: s.ci_high_ns,
    };
    Some((e, c))
}

/// The crossover between the first and last of `between` (two winner
/// segments, with the unsettled ones between them).
fn crossover(sizes: &[Decided], between: &[SizeSegment], fits: &[Fitted], settings: &AnalysisSettings) -> Crossover {
    let (first, last) = (&between[0], &between[between.len() - 1]);
    let below = *first.payload_bytes.last().expect("a segment has sizes");
    let above = last.payload_bytes[0];
    let at = |bytes: u64| sizes.iter().find(|d| d.bytes == bytes).expect("a decided size");
    let (a, b) = (at(below), at(above));
    let before = first.implementation.clone().unwrap_or_default();
    let after = last.implementation.clone().unwrap_or_default();
    let [before_1, after_1, before_2, after_2] =
        [(a, &before), (a, &after), (b, &before), (b, &after)].map(|(d, n)| evidence(d, n));
    let ratio_of = |slow: &Option<(Evidence, &Cell)>, fast: &Option<(Evidence, &Cell)>| {
        slow.as_ref()
            .zip(fast.as_ref())
            .and_then(|(s, f)| winner::ratio(s.1, f.1, settings))
    };
    let fit_of = |n: &str| fits.iter().find(|f| f.implementation == n && f.fit.holds);
    let estimate = match (fit_of(&before), fit_of(&after)) {
        (Some(fa), Some(fb)) => {
            crossing(fa, fb, settings.confidence).filter(|e| e.0 > below as f64 && e.0 < above as f64)
        }
        _ => None,
    };
    let unsettled = between[1..between.len() - 1]
        .iter()
        .flat_map(|s| s.payload_bytes.iter().copied())
        .collect();
    Crossover {
        below_ratio: ratio_of(&after_1, &before_1),
        above_ratio: ratio_of(&before_2, &after_2),
        before,
        after,
        below_bytes: below,
        above_bytes: above,
        unsettled_bytes: unsettled,
        evidence: [before_1, after_1, before_2, after_2]
            .into_iter()
            .flatten()
            .map(|(e, _)| e)
            .collect(),
        estimated_bytes: estimate.map(|e| e.0),
        estimated_ci_low_bytes: estimate.and_then(|e| e.1),
        estimated_ci_high_bytes: estimate.and_then(|e| e.2),
    }
}

/// Where `a`'s line meets `b`'s: the size and its bootstrap interval (the
/// two fits' r-th resampled lines crossed pairwise; they were resampled
/// independently, so any pairing is a valid draw).
fn crossing(a: &Fitted, b: &Fitted, confidence: f64) -> Option<(f64, Option<f64>, Option<f64>)> {
    let at = |la: &Line, lb: &Line| (lb.intercept - la.intercept) / (la.slope - lb.slope);
    let point = at(&a.line, &b.line);
    if !(point.is_finite() && point > 0.0) {
        return None;
    }
    let draws: Vec<f64> = a
        .draws
        .iter()
        .zip(&b.draws)
        .map(|(la, lb)| at(la, lb))
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    let usable = draws.len() as f64 >= USABLE_CROSSINGS * a.draws.len().min(b.draws.len()) as f64;
    let interval = usable
        .then(|| bootstrap::percentile_interval(draws, confidence))
        .flatten();
    Some((point, interval.map(|i| i.low), interval.map(|i| i.high)))
}
