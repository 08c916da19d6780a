//! The report checker: every finding of a document read against the
//! verdicts of its own cells, by rules written out again here rather than
//! by calling the code that wrote the findings, so a mistake in one is
//! caught by the other. CI runs it over every committed report
//! (`docs/results/*/results.json`, analysed again by this versus) and over
//! random synthetic results; a contradiction fails the build.
//!
//! What a finding may say, and what is checked:
//! - a winner at a size: the fastest median there, its runs stable, at
//!   least 6 runs, and the judge's verdict of every other ok cell against
//!   it `slower`;
//! - "the same": the fastest and the runner-up stable, and their verdict `same`;
//! - "unknown": no rule above would have named a winner or "the same";
//! - "unstable": the cells named are unstable (their runs, assessed again);
//! - segments: consecutive, covering every size once, each size's answer
//!   its segment's; a crossover exactly where two neighbouring winner
//!   segments name different winners;
//! - words: never "tie" (a verdict is `same` or `unknown`), "same" and "≈"
//!   only where an answer is `same`, "X is fastest" only for a winner;
//! - evidence (a crossover's cells, a cost line's, a drift's): stable runs;
//! - the suite's overall summary: counts that are the verdicts' own, and
//!   no cell whose runs are unstable in any mean (`runs`);
//! - small samples (`runs`): no cell whose every run was slower than every
//!   run of the fastest named as possibly fastest, and a description of
//!   runs never a winner;
//! - size (`cost`): a line called linear within the one tolerance of every
//!   median, one refused beyond it; a growth exponent and a cliff as the
//!   medians give them.

mod cost;
mod runs;

use crate::base::metric::Metric;
use crate::judge;
use crate::judge::judge_pair;
use crate::results::{Cell, Finding, FindingKind, Results, SizeAnswer, SizeWinner, Verdict};
use crate::stats::order::min_samples;

/// A finding (or the overall summary) that a verdict contradicts.
#[derive(Debug, Clone, PartialEq)]
pub struct Contradiction {
    pub operation: String,
    /// The finding's sentence.
    pub text: String,
    pub problem: String,
}

impl std::fmt::Display for Contradiction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: \"{}\": {}", self.operation, self.text, self.problem)
    }
}

/// Every contradiction between `results`' findings and its verdicts; empty
/// when every sentence holds.
pub fn contradictions(results: &Results) -> Vec<Contradiction> {
    let mut out = Vec::new();
    for f in &results.findings {
        let mut problems = words(results, f);
        if let Some(winners) = &f.winners {
            problems.extend(winners.iter().flat_map(|w| size(results, f, w)));
            problems.extend(segments(f, winners));
        }
        problems.extend(evidence(results, f));
        problems.extend(cost::problems(results, f));
        out.extend(problems.into_iter().map(|problem| Contradiction {
            operation: f.operation.clone(),
            text: f.text.clone(),
            problem,
        }));
    }
    out.extend(
        crate::analysis::overall::check(results)
            .into_iter()
            .chain(runs::means(results))
            .map(|problem| Contradiction {
                operation: String::new(),
                text: "overall".into(),
                problem,
            }),
    );
    out
}

/// Whether `c`'s runs are unstable, assessed again from its samples (a
/// cell that holds only a harness's summary keeps its recorded answer).
pub(crate) fn unstable(c: &Cell) -> bool {
    if c.samples.is_empty() {
        return c.stats.as_ref().is_some_and(|s| s.unstable.is_some());
    }
    judge::assess(&c.samples.per_call_ns(), &c.segment_lengths()).is_some()
}

fn median(c: &Cell) -> f64 {
    c.stats.as_ref().map_or(f64::MAX, |s| s.median_ns)
}

/// The ok cells of the group a size answer is about, fastest first.
fn group<'r>(results: &'r Results, f: &Finding, w: &SizeWinner) -> Vec<&'r Cell> {
    let Some(anchor) = results.cells.iter().find(|c| {
        c.operation == f.operation
            && c.implementation == w.fastest
            && c.payload_bytes.unwrap_or(0) == w.payload_bytes
            && f.params.iter().all(|(k, v)| c.params.get(k) == Some(v))
    }) else {
        return vec![];
    };
    let mut cells: Vec<&Cell> = results
        .cells
        .iter()
        .filter(|c| {
            c.operation == anchor.operation
                && c.params == anchor.params
                && c.machine == anchor.machine
                && c.stats.is_some()
        })
        .collect();
    cells.sort_by(|a, b| median(a).total_cmp(&median(b)));
    cells
}

/// The judge's verdict, from the one entry every finding asks (a
/// carry-over can withhold it).
fn verdict(results: &Results, slow: &Cell, fast: &Cell) -> Option<Verdict> {
    judge_pair(Metric::Wall, slow, fast, &results.analysis).map(|j| j.comparison.verdict)
}

/// What the rule gives for a group (fastest first): the answer and the winner.
fn rule(results: &Results, cells: &[&Cell]) -> (SizeAnswer, Option<String>) {
    let [first, second, ..] = cells else {
        return (SizeAnswer::Unknown, None);
    };
    let shaky = unstable(first) || unstable(second);
    // Over unstable runs, only a lead in every run counts.
    let slowest = first.stats.as_ref().map_or(f64::MAX, |s| s.max_ns);
    if shaky
        && !cells[1..]
            .iter()
            .all(|c| c.stats.as_ref().is_some_and(|s| s.min_ns > slowest))
    {
        return (SizeAnswer::Unstable, None);
    }
    match verdict(results, second, first) {
        Some(Verdict::Same) if !shaky => (SizeAnswer::Same, None),
        Some(Verdict::Slower)
            if cells[2..]
                .iter()
                .all(|c| verdict(results, c, first) == Some(Verdict::Slower)) =>
        {
            (SizeAnswer::Winner, Some(first.implementation.clone()))
        }
        _ => (SizeAnswer::Unknown, None),
    }
}

/// One size's answer against its group's verdicts.
fn size(results: &Results, f: &Finding, w: &SizeWinner) -> Vec<String> {
    let at = crate::base::text::payload(w.payload_bytes);
    let cells = group(results, f, w);
    let mut out = Vec::new();
    if cells.len() < 2 {
        return vec![format!("at {at}: no group of two ok cells with {} fastest", w.fastest)];
    }
    if cells[0].implementation != w.fastest {
        out.push(format!(
            "at {at}: {} is named fastest, but {} has the lower median",
            w.fastest, cells[0].implementation
        ));
    }
    if (w.answer == SizeAnswer::Winner) != w.implementation.is_some() {
        out.push(format!("at {at}: a winner is named only with the answer `winner`"));
    }
    if let Some(name) = &w.implementation {
        let runs = cells[0].stats.as_ref().map_or(0, |s| s.n);
        if runs < min_samples(results.analysis.confidence) {
            out.push(format!(
                "at {at}: {name} is named winner on {runs} runs, too few for a verdict"
            ));
        }
    }
    if w.every_run {
        let slowest = cells[0].stats.as_ref().map_or(f64::MAX, |s| s.max_ns);
        if cells[1..]
            .iter()
            .any(|c| c.stats.as_ref().is_none_or(|s| s.min_ns <= slowest))
        {
            out.push(format!("at {at}: said to win in every run, but the runs overlap"));
        }
    }
    for name in &w.unstable {
        if !cells.iter().any(|c| &c.implementation == name && unstable(c)) {
            out.push(format!("at {at}: {name} is called unstable, but its runs are not"));
        }
    }
    out.extend(open_names(results, &cells, w, &at));
    let (answer, winner) = rule(results, &cells);
    if answer != w.answer || winner != w.implementation {
        let said = |a: SizeAnswer, n: &Option<String>| match n {
            Some(n) => format!("{n} wins"),
            None => format!("{a:?}").to_lowercase(),
        };
        out.push(format!(
            "at {at}: the finding says {}, the verdicts say {}",
            said(w.answer, &w.implementation),
            said(answer, &winner)
        ));
    }
    out
}

/// An unknown answer names every cell the fastest is not confirmed ahead
/// of (by the findings' own rule, `winner::ratio`), and no other: as open,
/// or as behind in every run (`runs::outrun`).
fn open_names(results: &Results, cells: &[&Cell], w: &SizeWinner, at: &str) -> Vec<String> {
    let open = |c: &Cell| {
        crate::analysis::findings::winner::ratio(c, cells[0], &results.analysis).and_then(|r| r.verdict)
            != Some(Verdict::Slower)
    };
    let mut out = runs::outrun(cells, w, at);
    for name in &w.also_unknown {
        match cells[1..].iter().find(|c| &c.implementation == name) {
            None => out.push(format!(
                "at {at}: {name} is named as open, but is no other cell of the group"
            )),
            Some(c) if !open(c) => out.push(format!(
                "at {at}: {name} is named as open, but is confirmed slower than {}",
                w.fastest
            )),
            Some(_) => {}
        }
    }
    if w.answer == SizeAnswer::Unknown {
        for c in &cells[1..] {
            let named = c.implementation == w.runner_up
                || w.also_unknown.contains(&c.implementation)
                || w.behind_every_run.contains(&c.implementation);
            if !named && open(c) {
                out.push(format!(
                    "at {at}: {} is not confirmed slower than {}, but the finding does not name it",
                    c.implementation, w.fastest
                ));
            }
        }
    }
    out
}

/// Segments that cover the sizes in order, each as its sizes say, and a
/// crossover wherever two neighbouring winner segments differ.
fn segments(f: &Finding, winners: &[SizeWinner]) -> Vec<String> {
    let mut out = Vec::new();
    if f.segments.is_empty() {
        return out;
    }
    let covered: Vec<u64> = f
        .segments
        .iter()
        .flat_map(|s| s.payload_bytes.iter().copied())
        .collect();
    let sizes: Vec<u64> = winners.iter().map(|w| w.payload_bytes).collect();
    if covered != sizes || !sizes.windows(2).all(|p| p[0] < p[1]) {
        out.push("the segments do not cover each size once, in order".to_string());
    }
    for s in &f.segments {
        for b in &s.payload_bytes {
            let w = winners.iter().find(|w| w.payload_bytes == *b);
            if w.is_none_or(|w| w.answer != s.answer || w.implementation != s.implementation) {
                out.push(format!(
                    "a segment says {:?} {:?} at {}, its size says otherwise",
                    s.answer,
                    s.implementation,
                    crate::base::text::payload(*b)
                ));
            }
        }
    }
    if f.segments
        .windows(2)
        .any(|p| p[0].answer == p[1].answer && p[0].implementation == p[1].implementation)
    {
        out.push("two neighbouring segments say the same: they are one".to_string());
    }
    let won: Vec<&crate::results::SizeSegment> = f.segments.iter().filter(|s| s.answer == SizeAnswer::Winner).collect();
    let expected: Vec<(String, String, u64, u64)> = won
        .windows(2)
        .filter(|p| p[0].implementation != p[1].implementation)
        .map(|p| {
            (
                p[0].implementation.clone().unwrap_or_default(),
                p[1].implementation.clone().unwrap_or_default(),
                *p[0].payload_bytes.last().unwrap_or(&0),
                p[1].payload_bytes[0],
            )
        })
        .collect();
    let stated: Vec<(String, String, u64, u64)> = f
        .crossovers
        .iter()
        .map(|x| (x.before.clone(), x.after.clone(), x.below_bytes, x.above_bytes))
        .collect();
    if stated != expected {
        out.push(format!(
            "crossovers {stated:?} where the winners change at {expected:?}"
        ));
    }
    if (f.kind == FindingKind::Crossover) == expected.is_empty() {
        out.push("a crossover finding exactly where the winner changes".to_string());
    }
    out
}

/// Where `word` occurs in `text` as a word of its own.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// What follows each "`name` is fastest" in `text` (with `name` whole).
fn fastest_claims<'t>(text: &'t str, name: &str) -> Vec<&'t str> {
    let phrase = format!("{name} is fastest");
    text.match_indices(&phrase)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            before.is_none_or(|c| c == ' ' || c == '(' || c == ';')
        })
        .map(|(i, _)| &text[i + phrase.len()..])
        .collect()
}

/// Where a winner segment says its winner is fastest, as findings write it.
fn places(f: &Finding, winners: &[SizeWinner], name: &str) -> Vec<String> {
    use crate::base::text::payload;
    if f.segments.is_empty() {
        let won = winners.iter().any(|w| w.implementation.as_deref() == Some(name));
        return if won { vec![String::new()] } else { vec![] };
    }
    f.segments
        .iter()
        .filter(|s| s.implementation.as_deref() == Some(name))
        .map(|s| match s.payload_bytes.as_slice() {
            [one] => format!(" at {}", payload(*one)),
            [first, .., last] if s.payload_bytes.len() == winners.len() => {
                format!(" at every size, {} to {}", payload(*first), payload(*last))
            }
            [first, .., last] => format!(" from {} to {}", payload(*first), payload(*last)),
            [] => String::new(),
        })
        .collect()
}

/// The words of a finding against its answers.
fn words(results: &Results, f: &Finding) -> Vec<String> {
    let mut out = Vec::new();
    for word in ["tie", "ties", "tied"] {
        if has_word(&f.text, word) {
            out.push(format!("\"{word}\": a verdict is `same` or `unknown`, never a tie"));
        }
    }
    let Some(winners) = &f.winners else {
        return out;
    };
    let same = winners.iter().any(|w| w.answer == SizeAnswer::Same);
    if !same && (f.text.contains("the same") || f.text.contains('≈')) {
        out.push("says \"the same\" where no verdict is `same`".to_string());
    }
    let mut names: Vec<&str> = results.cells.iter().map(|c| c.implementation.as_str()).collect();
    names.dedup();
    for name in names {
        let allowed = places(f, winners, name);
        for claim in fastest_claims(&f.text, name) {
            // " at 1 MB" must not pass for " at 1 MB to 100 MB": the place ends where the sentence goes on.
            let ends = |p: &String| {
                claim
                    .strip_prefix(p.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', ' ', ';']))
            };
            if !allowed.iter().any(ends) {
                let place: String = claim.chars().take_while(|c| *c != '(' && *c != ';').collect();
                out.push(format!(
                    "says {name} is fastest{place}, where the verdicts do not confirm it"
                ));
            }
        }
    }
    out
}

/// Cells a finding rests on that are unstable, and a drift that is not.
fn evidence(results: &Results, f: &Finding) -> Vec<String> {
    let cell = |id: &str| results.cells.iter().find(|c| c.id == id);
    let mut rests_on: Vec<&str> = Vec::new();
    match f.kind {
        FindingKind::Cost | FindingKind::NotLinear | FindingKind::Drift => {
            rests_on.extend(f.cells.iter().map(String::as_str));
        }
        FindingKind::Crossover => {
            // A size won in every run cites its unstable loser by its range, not its median.
            let every_run = |bytes: u64| {
                f.winners
                    .iter()
                    .flatten()
                    .any(|w| w.payload_bytes == bytes && w.every_run)
            };
            rests_on.extend(
                f.crossovers
                    .iter()
                    .flat_map(|x| x.evidence.iter())
                    .filter(|e| !every_run(e.payload_bytes))
                    .map(|e| e.cell.as_str()),
            );
        }
        _ => {}
    }
    let mut out: Vec<String> = rests_on
        .into_iter()
        .filter(|id| cell(id).is_some_and(unstable))
        .map(|id| format!("rests on {id}, whose runs are unstable"))
        .collect();
    if f.kind == FindingKind::Unstable {
        out.extend(
            f.unstable
                .iter()
                .filter(|u| !cell(&u.cell).is_some_and(unstable))
                .map(|u| format!("calls {} unstable, but its runs are not", u.cell)),
        );
    }
    if f.kind == FindingKind::Drift {
        let intervals: Vec<(f64, f64)> = f
            .cells
            .iter()
            .filter_map(|id| cell(id)?.stats.as_ref())
            .filter_map(|s| Some((s.ci_low_ns?, s.ci_high_ns?)))
            .collect();
        let highest_low = intervals.iter().map(|i| i.0).fold(f64::MIN, f64::max);
        let lowest_high = intervals.iter().map(|i| i.1).fold(f64::MAX, f64::min);
        if highest_low <= lowest_high {
            out.push("a drift whose cells' intervals overlap".to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests;
