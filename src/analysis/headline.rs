//! The headline: the comparisons a report opens with, each one group (an
//! operation at one parameter set) with every implementation asked about
//! against one reference, judged by the one judge (`judge_pair`).
//!
//! A suite that states its comparisons (`[[report.headline]]`) gets those,
//! in its order. Otherwise versus picks: for each series over payload sizes
//! the largest size at which the reference and most implementations
//! finished, then the smallest and each size where the confirmed fastest
//! changes; each group without sizes is a candidate of its own. The first
//! round (one line per series or group) comes before the second, each
//! ordered by its largest difference, and at most `DERIVED` lines are
//! kept, so the headline fits a first screen whatever the suite's size.

use crate::analysis::baseline_of;
use crate::analysis::findings::series;
use crate::base::metric::Metric;
use crate::base::text;
use crate::judge::judge_pair;
use crate::results::{
    AnalysisSettings, Cell, FindingKind, Headline, HeadlineAsk, HeadlineRow, Results, Verdict, place,
};

/// The most lines versus picks for a suite that states none.
pub const DERIVED: usize = 8;

/// The headline of `results`: the suite's own comparisons, else those versus picks.
pub(super) fn compute(results: &Results) -> Vec<Headline> {
    if results.view != Metric::Wall {
        return vec![];
    }
    let asks = &results.suite.report.headline;
    if !asks.is_empty() {
        return asks.iter().flat_map(|a| asked(results, a)).collect();
    }
    derived(results)
}

/// Every group of the document, in document order, as its cells.
fn groups(results: &Results) -> Vec<Vec<&Cell>> {
    crate::analysis::group_indices(&results.cells)
        .into_iter()
        .map(|g| g.into_iter().map(|i| &results.cells[i]).collect())
        .collect()
}

/// The lines one stated comparison gives: one per group it picks.
fn asked(results: &Results, ask: &HeadlineAsk) -> Vec<Headline> {
    groups(results)
        .into_iter()
        .filter(|g| {
            let c = g[0];
            c.operation == ask.operation && ask.at.iter().all(|(k, v)| c.params.get(k) == Some(v))
        })
        .filter_map(|g| {
            let mut h = line(results, &g, ask.against.as_deref(), &ask.implementations)?;
            h.declared = true;
            h.question = ask.question.clone();
            Some(h)
        })
        .collect()
}

/// A candidate line, the round it belongs to and what it stands for (a
/// series, or an operation's groups without sizes): the first round takes
/// one line of each.
struct Candidate {
    round: u8,
    key: String,
    headline: Headline,
}

fn derived(results: &Results) -> Vec<Headline> {
    let mut in_series = std::collections::HashSet::new();
    let mut out: Vec<Candidate> = Vec::new();
    for s in &series::all(results) {
        let sized = s.by_size();
        in_series.extend(s.cells.iter().map(|c| c.id.as_str()));
        let key = format!("{}|{}", s.operation, crate::base::params::params_key(&s.params));
        for (why, bytes) in picks(results, s, &sized) {
            let Some(first) = sized.iter().find(|(b, _)| *b == bytes).and_then(|(_, c)| c.first()) else {
                continue;
            };
            let group: Vec<&Cell> = s.cells.iter().copied().filter(|c| c.params == first.params).collect();
            if let Some(mut h) = line(results, &group, None, &[]) {
                h.why = Some(why.to_string());
                out.push(Candidate {
                    round: 0,
                    key: key.clone(),
                    headline: h,
                });
            }
        }
    }
    // Groups without sizes: the operation's last group (its largest values) leads.
    for g in groups(results).into_iter().rev() {
        if g.iter().any(|c| in_series.contains(c.id.as_str())) {
            continue;
        }
        if let Some(h) = line(results, &g, None, &[]) {
            out.push(Candidate {
                round: 0,
                key: h.operation.clone(),
                headline: h,
            });
        }
    }
    let mut seen = std::collections::HashSet::new();
    for c in &mut out {
        let leads = c.headline.why.as_deref().is_some_and(|w| w.starts_with("largest"));
        c.round = if seen.insert(c.key.clone()) || leads { 1 } else { 2 };
    }
    out.sort_by(|a, b| {
        a.round
            .cmp(&b.round)
            .then(effect(&b.headline).total_cmp(&effect(&a.headline)))
    });
    out.into_iter().take(DERIVED).map(|c| c.headline).collect()
}

/// The largest difference a line shows (in log ratio), for its place.
fn effect(h: &Headline) -> f64 {
    h.rows.iter().map(|r| r.ratio.ln().abs()).fold(0.0, f64::max)
}

/// The sizes a series offers, the first two leading: its largest size at
/// which every implementation finished and its largest with the reference
/// and half of them (one size when they are the same), then the smallest
/// and each size where the confirmed fastest changes.
fn picks(results: &Results, s: &series::Series, sized: &[(u64, Vec<&Cell>)]) -> Vec<(&'static str, u64)> {
    let implementations = s.by_implementation().len();
    let settled = |cells: &Vec<&Cell>| {
        let reference = baseline_of(cells, results.suite.baseline.as_deref()).is_some();
        reference && cells.len() >= 2 && cells.len() * 2 >= implementations
    };
    let ok: Vec<u64> = sized.iter().filter(|(_, c)| settled(c)).map(|(b, _)| *b).collect();
    let whole = sized
        .iter()
        .filter(|(_, c)| settled(c) && c.len() == implementations)
        .map(|(b, _)| *b)
        .next_back();
    let (Some(&large), Some(&small)) = (ok.last(), ok.first()) else {
        return vec![];
    };
    let mut out = vec![];
    let mut add = |why: &'static str, bytes: u64| {
        if !out.iter().any(|(_, b)| *b == bytes) {
            out.push((why, bytes));
        }
    };
    add("largest size", large);
    add("largest size where all finished", whole.unwrap_or(large));
    add("smallest size", small);
    let changes = results
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Crossover && f.operation == s.operation && f.params == s.params);
    for c in changes.flat_map(|f| f.crossovers.iter()) {
        if ok.contains(&c.above_bytes) {
            add("the fastest changes", c.above_bytes);
        }
    }
    out
}

/// One group's line: `names` (every other implementation when empty)
/// against `against` (the suite's baseline, else the fastest).
fn line(results: &Results, group: &[&Cell], against: Option<&str>, names: &[String]) -> Option<Headline> {
    let settings = &results.analysis;
    let reference = match against {
        Some(name) => group
            .iter()
            .copied()
            .find(|c| c.implementation == name && c.stats.is_some()),
        None => baseline_of(group, results.suite.baseline.as_deref()),
    }?;
    let asked = |c: &&&Cell| {
        c.implementation != reference.implementation && (names.is_empty() || names.contains(&c.implementation))
    };
    let mut rows: Vec<HeadlineRow> = group
        .iter()
        .filter(asked)
        .filter_map(|c| row(c, reference, settings))
        .collect();
    let missing: Vec<(String, String)> = group
        .iter()
        .filter(asked)
        .filter(|c| c.stats.is_none() && c.outcome != crate::base::outcome::Outcome::Skipped)
        .map(|c| (c.implementation.clone(), c.outcome.label().to_string()))
        .collect();
    if rows.is_empty() {
        return None;
    }
    rows.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let against_median = reference.stats.as_ref()?.median_ns;
    let mut h = Headline {
        operation: reference.operation.clone(),
        params: reference.params.clone(),
        against: reference.implementation.clone(),
        against_median,
        declared: false,
        question: None,
        why: None,
        rows,
        missing,
        text: String::new(),
    };
    h.text = sentence(&h, reference);
    Some(h)
}

fn row(cell: &Cell, reference: &Cell, settings: &AnalysisSettings) -> Option<HeadlineRow> {
    let judged = judge_pair(Metric::Wall, cell, reference, settings)?;
    let c = judged.comparison;
    let (s, r) = (cell.stats.as_ref()?, reference.stats.as_ref()?);
    let apart = (c.ci_low.is_none() && (s.min_ns > r.max_ns || s.max_ns < r.min_ns))
        .then_some([s.min_ns, s.max_ns, r.min_ns, r.max_ns]);
    Some(HeadlineRow {
        implementation: cell.implementation.clone(),
        median: s.median_ns,
        ratio: c.ratio,
        ci_low: c.ci_low,
        ci_high: c.ci_high,
        verdict: c.verdict,
        apart,
        note: c.note.clone(),
    })
}

/// "encrypt at 100MiB: go-sdk 33.1 ms; go-writer 2.03x faster [1.95, 2.10];
/// java-sdk 21.4x slower [20.1, 22.3]; wasm-chicory did not finish (timeout)".
fn sentence(h: &Headline, reference: &Cell) -> String {
    let stats = reference.stats.as_ref();
    let mut first = format!("{} {}", h.against, text::figure(Metric::Wall, h.against_median));
    let apart = h.rows.iter().any(|r| r.apart.is_some());
    if let Some(s) = stats.filter(|_| apart) {
        first.push_str(&format!(
            " (runs {})",
            text::figure_range(Metric::Wall, s.min_ns, s.max_ns)
        ));
    }
    let mut parts = vec![first];
    parts.extend(h.rows.iter().map(|r| format!("{} {}", r.implementation, row_text(r))));
    parts.extend(
        h.missing
            .iter()
            .map(|(name, outcome)| format!("{name} did not finish ({outcome})")),
    );
    let mut out = format!("{}: {}", place(&h.operation, &h.params), parts.join("; "));
    if apart {
        let n = stats.map_or(0, |s| s.n);
        out.push_str(&format!(
            " ({n} runs each: no interval below 6; \"every run\" is each run beyond every run of {})",
            h.against
        ));
    }
    out
}

/// One implementation against the reference, in words and figures.
fn row_text(r: &HeadlineRow) -> String {
    let interval = |lo: f64, hi: f64| {
        let [_, lo, hi] = text::numbers([1.0, lo, hi]);
        format!("[{lo}, {hi}]")
    };
    match (r.verdict, r.ci_low, r.ci_high) {
        (Verdict::Slower, Some(lo), Some(hi)) => format!("{} slower {}", text::ratio(r.ratio), interval(lo, hi)),
        (Verdict::Faster, Some(lo), Some(hi)) => {
            format!("{} faster {}", text::ratio(1.0 / r.ratio), interval(1.0 / hi, 1.0 / lo))
        }
        (Verdict::Same, Some(lo), Some(hi)) => format!("the same ({} {})", text::ratio(r.ratio), interval(lo, hi)),
        (_, Some(lo), Some(hi)) => format!("unknown ({} {})", text::ratio(r.ratio), interval(lo, hi)),
        _ => match r.apart {
            Some([lo, hi, _, _]) => {
                let (factor, word) = if r.ratio > 1.0 {
                    (r.ratio, "slower")
                } else {
                    (1.0 / r.ratio, "faster")
                };
                format!(
                    "{} {word}, every run ({})",
                    text::ratio(factor),
                    text::figure_range(Metric::Wall, lo, hi)
                )
            }
            None => format!(
                "unknown ({} the median; no interval below 6 runs)",
                text::ratio(r.ratio)
            ),
        },
    }
}

/// Fills in the document's headline.
pub(super) fn refresh(results: &mut Results) {
    results.headline = compute(results);
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::analysis::findings::tests::{cell, document, runs};
    use crate::base::params::ParamValue;
    use crate::results::Cell;

    /// `a` (the baseline) and `b` at `factor` times its time, at each size, `n` runs each.
    fn pair(operation: &str, sizes: &[u64], factor: f64, n: usize, rng: &mut ChaCha8Rng) -> Vec<Cell> {
        sizes
            .iter()
            .flat_map(|&s| {
                let t = 1e6 + s as f64 * 10.0;
                [
                    cell("a", operation, s, &[], runs(rng, t, 0.01, n)),
                    cell("b", operation, s, &[], runs(rng, t * factor, 0.01, n)),
                ]
            })
            .collect()
    }

    fn analysed(cells: Vec<Cell>) -> Results {
        let mut r = document(cells);
        r.suite.baseline = Some("a".into());
        crate::analysis::analyze(&mut r, &[]);
        r
    }

    #[test]
    fn each_series_leads_with_its_largest_size_then_its_smallest() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut cells = pair("encrypt", &[1_000, 100_000, 10_000_000], 3.0, 10, &mut rng);
        cells.extend(pair("decrypt", &[1_000, 100_000, 10_000_000], 1.5, 10, &mut rng));
        let r = analysed(cells);
        let at: Vec<(String, String)> = r
            .headline
            .iter()
            .map(|h| (h.operation.clone(), h.params["size"].to_string()))
            .collect();
        // Round one: each operation's largest size, the larger difference first; then the smallest.
        assert_eq!(
            at,
            [
                ("encrypt".to_string(), "10000000".to_string()),
                ("decrypt".into(), "10000000".into()),
                ("encrypt".into(), "1000".into()),
                ("decrypt".into(), "1000".into())
            ]
        );
        let first = &r.headline[0];
        assert_eq!(first.against, "a");
        assert_eq!(first.rows[0].verdict, Verdict::Slower);
        assert!((first.rows[0].ratio - 3.0).abs() < 0.1, "{}", first.rows[0].ratio);
        assert!(first.text.starts_with("encrypt at size=10000000: a "), "{}", first.text);
        assert!(first.text.contains("b 3."), "{}", first.text);
        assert!(first.text.contains("x slower ["), "{}", first.text);
    }

    #[test]
    fn a_suite_of_many_groups_gets_at_most_the_cap() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let cells: Vec<Cell> = (0..12)
            .flat_map(|i| {
                pair(
                    &format!("op{i}"),
                    &[1_000, 1_000_000],
                    1.2 + i as f64 * 0.1,
                    10,
                    &mut rng,
                )
            })
            .collect();
        let r = analysed(cells);
        assert_eq!(r.headline.len(), DERIVED);
        // Each of the eight is an operation's largest size, the largest differences first.
        assert!(
            r.headline
                .iter()
                .all(|h| h.params["size"] == ParamValue::Int(1_000_000))
        );
        assert_eq!(r.headline[0].operation, "op11");
    }

    #[test]
    fn below_six_runs_runs_entirely_apart_are_described_not_judged() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let r = analysed(pair("encrypt", &[1_000], 12.0, 3, &mut rng));
        let row = &r.headline[0].rows[0];
        assert_eq!(row.verdict, Verdict::Unknown);
        assert!(row.ci_low.is_none() && row.apart.is_some());
        let text = &r.headline[0].text;
        assert!(text.contains("x slower, every run ("), "{text}");
        assert!(text.contains("3 runs each: no interval below 6"), "{text}");
        // Overlapping runs below six are only unknown.
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let r = analysed(pair("encrypt", &[1_000], 1.001, 3, &mut rng));
        assert!(r.headline[0].rows[0].apart.is_none());
        assert!(r.headline[0].text.contains("unknown ("), "{}", r.headline[0].text);
    }

    #[test]
    fn a_stated_comparison_replaces_the_picked_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut r = document(pair("encrypt", &[1_000, 100_000, 10_000_000], 2.0, 10, &mut rng));
        r.suite.baseline = Some("a".into());
        r.suite.report.headline = vec![HeadlineAsk {
            operation: "encrypt".into(),
            at: [("size".to_string(), ParamValue::Int(100_000))].into_iter().collect(),
            implementations: vec![],
            against: Some("b".into()),
            question: Some("How much faster is a than b?".into()),
        }];
        crate::analysis::analyze(&mut r, &[]);
        assert_eq!(r.headline.len(), 1);
        let h = &r.headline[0];
        assert!(h.declared);
        assert_eq!((h.against.as_str(), h.rows[0].implementation.as_str()), ("b", "a"));
        assert_eq!(h.rows[0].verdict, Verdict::Faster);
        assert_eq!(h.question.as_deref(), Some("How much faster is a than b?"));
    }

    #[test]
    fn a_failed_implementation_is_named_and_a_skipped_one_is_not() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let mut cells = pair("encrypt", &[1_000], 2.0, 10, &mut rng);
        let mut failed = cell("c", "encrypt", 1_000, &[], vec![]);
        failed.outcome = crate::base::outcome::Outcome::Timeout;
        let mut skipped = cell("d", "encrypt", 1_000, &[], vec![]);
        skipped.outcome = crate::base::outcome::Outcome::Skipped;
        cells.extend([failed, skipped]);
        let r = analysed(cells);
        let text = &r.headline[0].text;
        assert!(text.contains("c did not finish (TIMEOUT)"), "{text}");
        assert!(!text.contains("d did not"), "{text}");
    }
}
