//! Who wins where. At each payload size of a series the fastest
//! implementation (lowest median) is called the winner when its median's
//! interval lies wholly below the runner-up's, or when the runner-up compares
//! slower by the rule every verdict of the report uses (`analysis::compare`:
//! paired where their runs were interleaved, p-value, interval, noise floor),
//! so a finding never reads "tied" where the ratio tables say "slower";
//! otherwise the size is a tie. Where the winner changes between two decided
//! sizes (ties in between are named), that is a crossover, with both
//! implementations' medians and their ratio at both sizes as evidence; where
//! both have cost lines that hold (`cost`), the lines' crossing, (fixed_B −
//! fixed_A) / (per_byte_A − per_byte_B), estimates the size, with an
//! interval from the bootstrap lines, if it lies between the two sizes. A
//! series whose winner never changes gets one `winner` finding instead.

use indexmap::IndexMap;

use crate::findings::cost::Fitted;
use crate::findings::series::Series;
use crate::findings::text;
use crate::results::{
    AnalysisSettings, Cell, Crossover, Evidence, Finding, FindingKind, Metric, Ratio, SizeWinner, Verdict,
};
use crate::stats::bootstrap;
use crate::stats::linear::Line;

/// Share of bootstrap crossings that must be usable (finite, positive) for
/// the estimate to get an interval.
const USABLE_CROSSINGS: f64 = 0.9;

/// One size of the series: the winner (or tie) and its ok cells.
pub(super) struct Decided<'r> {
    pub bytes: u64,
    pub winner: SizeWinner,
    pub compared: [&'r Cell; 2],
    pub cells: Vec<&'r Cell>,
}

/// `slow`'s time over `fast`'s, as the report's comparisons compute it.
fn ratio(slow: &Cell, fast: &Cell, settings: &AnalysisSettings) -> Option<Ratio> {
    let paired = slow.started_at.is_some() && slow.started_at == fast.started_at && slow.machine == fast.machine;
    let c = crate::judge::compare::compare(slow, fast, paired, settings)?;
    Some(Ratio {
        ratio: c.ratio,
        ci_low: c.ci_low,
        ci_high: c.ci_high,
        paired,
        confirmed: c.verdict == Verdict::Slower,
    })
}

pub(super) fn decide<'r>(bytes: u64, cells: &[&'r Cell], settings: &AnalysisSettings) -> Option<Decided<'r>> {
    let mut ok: Vec<&Cell> = cells.iter().copied().filter(|c| c.stats.is_some()).collect();
    if ok.len() < 2 {
        return None;
    }
    let median = |c: &Cell| c.stats.as_ref().map_or(f64::MAX, |s| s.median_ns);
    ok.sort_by(|a, b| median(a).total_cmp(&median(b)));
    let (first, second) = (ok[0], ok[1]);
    let (s1, s2) = (first.stats.as_ref()?, second.stats.as_ref()?);
    let apart = matches!((s1.ci_high_ns, s2.ci_low_ns), (Some(hi), Some(lo)) if hi < lo);
    let r = ratio(second, first, settings);
    let clear = apart || r.as_ref().is_some_and(|r| r.confirmed);
    Some(Decided {
        bytes,
        winner: SizeWinner {
            payload_bytes: bytes,
            implementation: clear.then(|| first.implementation.clone()),
            fastest: first.implementation.clone(),
            runner_up: second.implementation.clone(),
            ratio: r,
        },
        compared: [first, second],
        cells: ok,
    })
}

/// The winner or crossover findings of one series.
pub fn findings(series: &Series, fits: &[Fitted], settings: &AnalysisSettings) -> Vec<Finding> {
    let sizes: Vec<Decided> = series
        .by_size()
        .into_iter()
        .filter_map(|(bytes, cells)| decide(bytes, &cells, settings))
        .collect();
    if sizes.len() < 2 {
        return vec![];
    }
    let table: Vec<SizeWinner> = sizes.iter().map(|d| d.winner.clone()).collect();
    let decided: Vec<&Decided> = sizes.iter().filter(|d| d.winner.implementation.is_some()).collect();
    let changes: Vec<(&Decided, &Decided)> = decided
        .windows(2)
        .filter(|w| w[0].winner.implementation != w[1].winner.implementation)
        .map(|w| (w[0], w[1]))
        .collect();
    if changes.is_empty() {
        return vec![winner(series, &sizes, table)];
    }
    changes
        .into_iter()
        .map(|(a, b)| {
            let mut f = crossover(series, (a, b), &sizes, fits, settings);
            f.winners = Some(table.clone());
            f
        })
        .collect()
}

/// The series' one winner wherever a size decided, and which two tie for
/// fastest where none did.
fn winner(series: &Series, sizes: &[Decided], table: Vec<SizeWinner>) -> Finding {
    let all: Vec<u64> = sizes.iter().map(|d| d.bytes).collect();
    let whole = |at: &[u64]| {
        if at.len() == all.len() && at.len() > 1 {
            format!(
                "every size, {} to {}",
                text::payload(all[0]),
                text::payload(all[all.len() - 1])
            )
        } else {
            text::sizes(at, &all)
        }
    };
    let name = sizes.iter().find_map(|d| d.winner.implementation.clone());
    let mut parts = Vec::new();
    if let Some(n) = &name {
        let won: Vec<u64> = sizes
            .iter()
            .filter(|d| d.winner.implementation.is_some())
            .map(|d| d.bytes)
            .collect();
        parts.push(format!("{n} {} at {}", series.metric.is_fastest(), whole(&won)));
    }
    // Ties, by the pair that tied (either way round), named as first seen.
    let mut ties: IndexMap<[&str; 2], ([&str; 2], Vec<u64>)> = IndexMap::new();
    for d in sizes.iter().filter(|d| d.winner.implementation.is_none()) {
        let pair = [d.winner.fastest.as_str(), d.winner.runner_up.as_str()];
        let mut key = pair;
        key.sort_unstable();
        ties.entry(key).or_insert((pair, vec![])).1.push(d.bytes);
    }
    for ([a, b], at) in ties.into_values() {
        parts.push(format!(
            "{a} and {b} tie for {} at {}",
            series.metric.fastest(),
            whole(&at)
        ));
    }
    let cells = sizes
        .iter()
        .flat_map(|d| d.compared.iter().map(|c| c.id.clone()))
        .collect();
    let mut f = Finding::new(
        FindingKind::Winner,
        series.operation,
        series.params.clone(),
        parts.join("; "),
        cells,
    );
    f.implementation = name;
    f.winners = Some(table);
    f
}

fn evidence<'r>(d: &Decided<'r>, implementation: &str) -> Option<(Evidence, &'r Cell)> {
    let c = *d.cells.iter().find(|c| c.implementation == implementation)?;
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

/// "4.91 against 6.02 ms: 1.27x [1.15, 1.35]" (the faster first); the
/// medians' intervals are in the finding's evidence.
fn evidence_text(metric: Metric, fast: &Evidence, slow: &Evidence, r: Option<&Ratio>) -> String {
    pair_text(metric, fast.median_ns, slow.median_ns, r)
}

/// Two medians and their ratio: "4.91 against 6.02 ms: 1.27x [1.15, 1.35]".
pub(super) fn pair_text(metric: Metric, fast_ns: f64, slow_ns: f64, r: Option<&Ratio>) -> String {
    let mut out = text::figure_pair(metric, fast_ns, slow_ns);
    if let Some(r) = r {
        out.push_str(&format!(": {}", text::ratio(r.ratio)));
        if let (Some(lo), Some(hi)) = (r.ci_low, r.ci_high) {
            let [_, lo, hi] = text::numbers([r.ratio, lo, hi]);
            out.push_str(&format!(" [{lo}, {hi}]"));
        }
    }
    out
}

fn crossover(
    series: &Series,
    (a, b): (&Decided, &Decided),
    sizes: &[Decided],
    fits: &[Fitted],
    settings: &AnalysisSettings,
) -> Finding {
    let before = a.winner.implementation.clone().unwrap_or_default();
    let after = b.winner.implementation.clone().unwrap_or_default();
    let [before_1, after_1, before_2, after_2] =
        [(a, &before), (a, &after), (b, &before), (b, &after)].map(|(d, n)| evidence(d, n));
    let below_ratio = before_1
        .as_ref()
        .zip(after_1.as_ref())
        .and_then(|(f, s)| ratio(s.1, f.1, settings));
    let above_ratio = after_2
        .as_ref()
        .zip(before_2.as_ref())
        .and_then(|(f, s)| ratio(s.1, f.1, settings));
    let tied: Vec<u64> = sizes
        .iter()
        .filter(|d| d.bytes > a.bytes && d.bytes < b.bytes)
        .map(|d| d.bytes)
        .collect();
    let fit_of = |n: &str| fits.iter().find(|f| f.implementation == n && f.fit.holds);
    let estimate = match (fit_of(&before), fit_of(&after)) {
        (Some(fa), Some(fb)) => {
            crossing(fa, fb, settings.confidence).filter(|e| e.0 > a.bytes as f64 && e.0 < b.bytes as f64)
        }
        _ => None,
    };
    let side =
        |fast: &Option<(Evidence, &Cell)>, slow: &Option<(Evidence, &Cell)>, r: Option<&Ratio>| match (fast, slow) {
            (Some(f), Some(s)) => format!(" ({})", evidence_text(series.metric, &f.0, &s.0, r)),
            _ => String::new(),
        };
    let mut sentence = format!(
        "{before} {} up to {}{}, {after} from {}{}",
        series.metric.is_faster(),
        text::payload(a.bytes),
        side(&before_1, &after_1, below_ratio.as_ref()),
        text::payload(b.bytes),
        side(&after_2, &before_2, above_ratio.as_ref()),
    );
    if !tied.is_empty() {
        let names: Vec<String> = tied.iter().map(|t| text::payload(*t)).collect();
        sentence.push_str(&format!("; tied at {}", text::and_list(&names)));
    }
    if let Some((at, lo, hi)) = estimate {
        sentence.push_str(&format!("; their cost lines cross near {}", text::size_f(at)));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let range = text::size_range(lo.round() as u64, hi.round() as u64).replacen('–', ", ", 1);
            sentence.push_str(&format!(" [{range}]"));
        }
    }
    let evidence: Vec<Evidence> = [before_1, after_1, before_2, after_2]
        .into_iter()
        .flatten()
        .map(|(e, _)| e)
        .collect();
    let mut f = Finding::new(
        FindingKind::Crossover,
        series.operation,
        series.params.clone(),
        sentence,
        evidence.iter().map(|e| e.cell.clone()).collect(),
    );
    f.crossover = Some(Crossover {
        before,
        after,
        below_bytes: a.bytes,
        above_bytes: b.bytes,
        tied_bytes: tied,
        evidence,
        below_ratio,
        above_ratio,
        estimated_bytes: estimate.map(|e| e.0),
        estimated_ci_low_bytes: estimate.and_then(|e| e.1),
        estimated_ci_high_bytes: estimate.and_then(|e| e.2),
    });
    f
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
