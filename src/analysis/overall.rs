//! The suite at a glance: each implementation against one reference over
//! every group of the suite — the geometric mean of its time ratios with an
//! interval (`judge::overall`, which says why the interval combines the
//! cells' own rather than resampling cells), the judge's verdict on that
//! mean, and how many of its comparisons were faster, slower, the same or
//! unknown. What Bencher and pyperf users ask of a suite: "how much faster
//! overall, and how often".
//!
//! The reference is the suite's baseline (or `--baseline`); a suite that
//! names none is summarised against its first implementation that ran,
//! and says so. Comparisons are `judge::compare`'s, paired as the tables'
//! are; a cell enters the mean only with an interval (6 runs or more) and
//! with stable runs on both sides (`judge::stability`).

use indexmap::IndexMap;

use crate::base::metric::Metric;
use crate::judge;
use crate::judge::LogEstimate;
use crate::judge::{Judged, judge_pair};
use crate::results::{Cell, Comparison, OperationMeans, Overall, OverallRow, Results, Verdict, group_key};

/// The reference and whether the suite names it.
fn reference(results: &Results) -> Option<(String, bool)> {
    let ran = results.implementations_that_ran();
    match &results.suite.baseline {
        Some(b) if ran.contains(b) => Some((b.clone(), true)),
        _ => ran.first().map(|f| (f.clone(), false)),
    }
}

/// One group (operation, parameters, machine): its operation and each
/// implementation's first cell.
struct Group<'r> {
    operation: &'r str,
    by_implementation: std::collections::HashMap<&'r str, &'r Cell>,
}

/// Cells by group, in document order: made once for every row, so a suite
/// of many implementations is not read once per implementation.
fn groups(results: &Results) -> Vec<Group<'_>> {
    let mut out: IndexMap<String, Group<'_>> = IndexMap::new();
    for c in &results.cells {
        let key = format!(
            "{}|{}",
            group_key(&c.operation, &c.params),
            c.machine.as_deref().unwrap_or("")
        );
        out.entry(key)
            .or_insert_with(|| Group {
                operation: &c.operation,
                by_implementation: Default::default(),
            })
            .by_implementation
            .entry(&c.implementation)
            .or_insert(c);
    }
    out.into_values().collect()
}

fn log_estimate(c: &Comparison) -> Option<LogEstimate> {
    let (lo, hi) = (c.ci_low?, c.ci_high?);
    (c.ratio > 0.0 && lo > 0.0 && hi > 0.0).then(|| LogEstimate {
        center: c.ratio.ln(),
        interval: Some((lo.ln(), hi.ln())),
        n: c.n,
        segments: c.levels.segments.max(1),
        between_share: c.levels.between_share,
        widened: c.levels.widened,
    })
}

/// One implementation's row: its comparisons with the reference, group by
/// group, over `groups` (every operation's, or one operation's alone).
fn row(results: &Results, groups: &[&Group<'_>], name: &str, reference: &str) -> OverallRow {
    let mut r = OverallRow {
        implementation: name.to_string(),
        ratio: None,
        ci_low: None,
        ci_high: None,
        verdict: Verdict::Unknown,
        cells: 0,
        ratio_min: None,
        ratio_max: None,
        faster: 0,
        slower: 0,
        same: 0,
        unknown: 0,
        no_interval: 0,
        unstable: 0,
        carry_over: 0,
        not_compared: 0,
    };
    let mut used: Vec<LogEstimate> = Vec::new();
    for group in groups {
        let mine = group.by_implementation.get(name);
        let theirs = group.by_implementation.get(reference);
        let (Some(mine), Some(theirs)) = (mine, theirs) else {
            r.not_compared += usize::from(mine.is_some() || theirs.is_some());
            continue;
        };
        let Some(Judged {
            comparison: c,
            withheld,
        }) = judge_pair(Metric::Wall, mine, theirs, &results.analysis)
        else {
            r.not_compared += 1;
            continue;
        };
        match c.verdict {
            Verdict::Faster => r.faster += 1,
            Verdict::Slower => r.slower += 1,
            Verdict::Same => r.same += 1,
            Verdict::Unknown | Verdict::Baseline => r.unknown += 1,
        }
        match log_estimate(&c) {
            None => r.no_interval += 1,
            Some(_) if mine.is_unstable() || theirs.is_unstable() => r.unstable += 1,
            // Its ratio depends on the order the runs were taken in.
            Some(_) if withheld => r.carry_over += 1,
            Some(e) => used.push(e),
        }
    }
    r.cells = used.len();
    let ratios = used.iter().map(|e| e.center.exp());
    r.ratio_min = ratios.clone().reduce(f64::min);
    r.ratio_max = ratios.reduce(f64::max);
    if let Some(mean) = judge::geometric_mean(&used) {
        r.ratio = Some(mean.center.exp());
        (r.ci_low, r.ci_high) = mean
            .interval
            .map_or((None, None), |(l, h)| (Some(l.exp()), Some(h.exp())));
        r.verdict = judge::decide(&mean, (1.0 + results.analysis.noise).ln());
    }
    r
}

/// The suite's overall summary; `None` when fewer than two implementations ran.
pub(super) fn compute(results: &Results) -> Option<Overall> {
    let (reference, named) = reference(results)?;
    let groups = groups(results);
    let every: Vec<&Group<'_>> = groups.iter().collect();
    let rows: Vec<OverallRow> = results
        .implementations_that_ran()
        .iter()
        .filter(|n| **n != reference)
        .map(|n| row(results, &every, n, &reference))
        .collect();
    let by_operation = split_by_operation(results, &groups, &rows, &reference);
    (!rows.is_empty()).then_some(Overall {
        reference,
        named,
        implementations: rows,
        by_operation,
    })
}

/// Each operation's own means, when some implementation's operations
/// disagree in direction (one confirmed faster, another confirmed slower):
/// then its whole-suite mean averages opposite answers. Empty otherwise.
fn split_by_operation(
    results: &Results,
    groups: &[Group<'_>],
    rows: &[OverallRow],
    reference: &str,
) -> Vec<OperationMeans> {
    if results.operations.len() < 2 {
        return vec![];
    }
    let mut of_operation: std::collections::HashMap<&str, Vec<&Group<'_>>> = std::collections::HashMap::new();
    for g in groups {
        of_operation.entry(g.operation).or_default().push(g);
    }
    let split: Vec<OperationMeans> = results
        .operations
        .iter()
        .map(|op| {
            let mine = of_operation.get(op.as_str()).map_or(&[][..], |g| &g[..]);
            OperationMeans {
                operation: op.clone(),
                implementations: rows
                    .iter()
                    .map(|r| row(results, mine, &r.implementation, reference))
                    .collect(),
            }
        })
        .collect();
    // Each operation's rows are in `rows`' order: the i-th is the i-th implementation's.
    let disagree = (0..rows.len()).any(|i| {
        let v: Vec<Verdict> = split.iter().map(|s| s.implementations[i].verdict).collect();
        v.contains(&Verdict::Faster) && v.contains(&Verdict::Slower)
    });
    if disagree { split } else { vec![] }
}

/// What the checker (`findings::check`) finds wrong with `results.overall`:
/// a row whose figures are not what its comparisons give.
pub(super) fn check(results: &Results) -> Vec<String> {
    let Some(stated) = &results.overall else {
        return vec![];
    };
    let Some(fresh) = compute(results) else {
        return vec!["an overall summary where fewer than two implementations ran".into()];
    };
    let mut out = Vec::new();
    if fresh.reference != stated.reference {
        out.push(format!(
            "overall against {}, where the reference is {}",
            stated.reference, fresh.reference
        ));
    }
    for s in &stated.implementations {
        let Some(f) = fresh
            .implementations
            .iter()
            .find(|f| f.implementation == s.implementation)
        else {
            out.push(format!("overall row for {}, which did not run", s.implementation));
            continue;
        };
        let counts = |r: &OverallRow| (r.faster, r.slower, r.same, r.unknown, r.cells);
        if counts(s) != counts(f) {
            out.push(format!(
                "{}: counts (faster, slower, same, unknown, cells) {:?}, the verdicts give {:?}",
                s.implementation,
                counts(s),
                counts(f)
            ));
        }
        if stated.named {
            // The tables' own verdicts, tallied: the same comparisons, made once more.
            let tally = |v: Verdict| {
                results
                    .comparisons
                    .iter()
                    .filter(|c| c.implementation == s.implementation && c.baseline == stated.reference)
                    .filter(|c| c.verdict == v)
                    .count()
            };
            let table = (tally(Verdict::Faster), tally(Verdict::Slower), tally(Verdict::Same));
            if table != (s.faster, s.slower, s.same) {
                out.push(format!(
                    "{}: (faster, slower, same) {:?}, the tables say {table:?}",
                    s.implementation,
                    (s.faster, s.slower, s.same)
                ));
            }
        }
        if s.verdict != f.verdict {
            out.push(format!(
                "{}: overall {:?}, the judge gives {:?}",
                s.implementation, s.verdict, f.verdict
            ));
        }
    }
    out
}

/// Puts a fresh summary in `results`: what `analysis::analyze` ends with.
pub(super) fn refresh(results: &mut Results) {
    results.overall = compute(results);
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::analysis::findings::tests::{cell, document, runs};

    /// B at `b` and C at `c` times A's 1 ms, at two sizes, `n` runs each.
    fn suite(b: [f64; 2], c: [f64; 2], n: usize, named: bool) -> Results {
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let mut cells = Vec::new();
        for (i, size) in [1_000u64, 1_000_000].into_iter().enumerate() {
            for (name, k) in [("A", 1.0), ("B", b[i]), ("C", c[i])] {
                cells.push(cell(name, "op", size, &[], runs(&mut rng, 1e6 * k, 0.002, n)));
            }
        }
        let mut r = document(cells);
        if named {
            r.suite.baseline = Some("A".into());
            crate::analysis::analyze(&mut r, &[]);
        }
        r
    }

    #[test]
    fn the_geometric_mean_of_the_ratios_with_the_verdicts_counted() {
        let r = suite([2.0, 8.0], [0.5, 1.0], 10, true);
        let o = r.overall.as_ref().unwrap();
        assert_eq!((o.reference.as_str(), o.named), ("A", true));
        let b = &o.implementations[0];
        assert_eq!(b.implementation, "B");
        assert!((b.ratio.unwrap() / 4.0 - 1.0).abs() < 0.01, "{b:?}");
        assert!(b.ci_low.unwrap() < b.ratio.unwrap() && b.ratio.unwrap() < b.ci_high.unwrap());
        assert_eq!((b.verdict, b.slower, b.faster, b.cells), (Verdict::Slower, 2, 0, 2));
        assert!((b.ratio_min.unwrap() / 2.0 - 1.0).abs() < 0.01 && (b.ratio_max.unwrap() / 8.0 - 1.0).abs() < 0.01);
        // Half as fast at one size, the same at the other: √0.5 overall.
        let c = &o.implementations[1];
        assert!((c.ratio.unwrap() / 0.5f64.sqrt() - 1.0).abs() < 0.01, "{c:?}");
        assert_eq!((c.faster, c.same + c.unknown), (1, 1));
        assert!(check(&r).is_empty(), "{:?}", check(&r));
    }

    #[test]
    fn without_a_named_baseline_the_first_implementation_and_no_mean_below_six_runs() {
        let r = suite([2.0, 8.0], [0.5, 1.0], 5, false);
        let o = r.overall.as_ref().unwrap();
        assert_eq!((o.reference.as_str(), o.named), ("A", false));
        let b = &o.implementations[0];
        assert_eq!(
            (b.ratio, b.verdict, b.cells, b.no_interval, b.unknown),
            (None, Verdict::Unknown, 0, 2, 2)
        );
    }

    #[test]
    fn unstable_cells_stay_out_of_the_mean() {
        let mut r = suite([2.0, 8.0], [0.5, 1.0], 10, true);
        let odd = r.cells.iter_mut().find(|c| c.id == "op/B/size=1000").unwrap();
        let wall: Vec<u64> = (0..10)
            .map(|i| if i % 2 == 0 { 2_000_000 } else { 9_000_000 } + i)
            .collect();
        odd.samples.wall_ns = wall.into();
        crate::analysis::analyze(&mut r, &[]);
        let b = &r.overall.as_ref().unwrap().implementations[0];
        assert_eq!((b.cells, b.unstable), (1, 1));
        assert!((b.ratio.unwrap() / 8.0 - 1.0).abs() < 0.01, "{b:?}");
    }

    #[test]
    fn a_cell_at_two_levels_with_a_run_in_passing_stays_out_of_the_mean() {
        // B's 1 KB cell as aes-gcm-java's sun-jdk21 at 10 MB: six runs at
        // 90 ms, one at 11.5 ms in passing, three at 2.36 ms.
        let mut r = suite([2.0, 8.0], [0.5, 1.0], 10, true);
        let odd = r.cells.iter_mut().find(|c| c.id == "op/B/size=1000").unwrap();
        let ms = [89.9, 89.4, 89.4, 89.8, 90.3, 89.5, 11.5, 2.36, 2.33, 2.40];
        odd.samples.wall_ns = ms.iter().map(|m| (m * 1e6) as u64).collect::<Vec<u64>>().into();
        crate::analysis::analyze(&mut r, &[]);
        let b = &r.overall.as_ref().unwrap().implementations[0];
        assert_eq!((b.cells, b.unstable), (1, 1), "{b:?}");
        assert!((b.ratio.unwrap() / 8.0 - 1.0).abs() < 0.01, "{b:?}");
        // The findings name it unstable.
        let named = r
            .findings
            .iter()
            .flat_map(|f| f.unstable.iter())
            .any(|u| u.cell == "op/B/size=1000");
        assert!(named, "{:?}", r.findings);
    }

    /// A suite run in blocks (hyperfine's order, two implementations, one
    /// group, 10 runs each, measured): the overall table compares the pair
    /// by the rule its table does — unpaired, since the runs took no turns.
    #[test]
    fn a_blocked_suites_overall_table_gives_its_tables_ratio() {
        let mut r = crate::results::from_text(include_str!("../../tests/fixtures/results/blocked.json")).unwrap();
        crate::analysis::analyze(&mut r, &[]);
        let table = r.comparisons.iter().find(|c| c.verdict != Verdict::Baseline).unwrap();
        assert!(!table.paired, "blocked runs are compared unpaired");
        let overall = r.overall.as_ref().unwrap();
        let row = &overall.implementations[0];
        assert_eq!(row.cells, 1);
        let close = |a: Option<f64>, b: Option<f64>| (a.unwrap() / b.unwrap() - 1.0).abs() < 1e-9;
        assert!(
            close(row.ratio, Some(table.ratio)),
            "{:?} against {}",
            row.ratio,
            table.ratio
        );
        assert!(
            close(row.ci_low, table.ci_low) && close(row.ci_high, table.ci_high),
            "{row:?} against {table:?}"
        );
    }
}
