//! The report's sentences about how it was measured and judged: how the
//! verdicts were reached, how instructions were counted, and how each cell's
//! runs were taken. Prose built from the document's own settings and
//! counts, shared by the Markdown, terminal and HTML reporters.

use crate::base::metric::Metric;
use crate::results::{Results, Verdict};

/// How the verdicts were reached, in one paragraph, with the count of each
/// answer and the smallest change the run could have seen.
pub(crate) fn verdict_note(results: &Results) -> String {
    let count = |v: Verdict| results.comparisons.iter().filter(|c| c.verdict == v).count();
    let noise = results.analysis.noise * 100.0;
    let could_see = match crate::results::detectable(results.comparisons.iter().filter_map(|c| c.minimum_detectable)) {
        Some((median, worst)) => format!(
            " This run could see changes of {:.1}% or more in its median comparison and {:.1}% in its least precise one (four times in five).",
            median * 100.0,
            worst * 100.0
        ),
        None => String::new(),
    };
    let settle = crate::results::settling_half(results.comparisons.iter().filter_map(|c| c.settle_runs));
    let settle = settle.map_or_else(String::new, |n| {
        format!(" At the spread seen, about {n} runs would settle half the unknowns (`--runs`, or `--precision`).")
    });
    if results.view == Metric::Instructions {
        return format!(
            "{} with fewer instructions, {} with more, {} the same (≈: the whole interval lies within ±{noise}%, or within the counts' own repeatability where that is wider), {} unknown. Ratios are of instructions per call from the counted runs, paired where they were counted in turn; a verdict is what its interval shows, by the same rule as time's, with the noise band of counts.{could_see}",
            count(Verdict::Faster),
            count(Verdict::Slower),
            count(Verdict::Same),
            count(Verdict::Unknown),
        );
    }
    format!(
        "{} faster, {} slower, {} the same (≈: the whole interval lies within ±{noise}%), {} unknown (the interval reaches past ±{noise}%, or too few runs for one).{settle} Ratios are paired where runs were interleaved (the median of the run-by-run ratios); intervals are {:.0}% order-statistic intervals of that median, widened by any variation between passes and worker processes; a verdict is what its interval shows: faster or slower when it excludes 1 and the ratio passes the {noise}% noise floor.{could_see}",
        count(Verdict::Faster),
        count(Verdict::Slower),
        count(Verdict::Same),
        count(Verdict::Unknown),
        results.analysis.confidence * 100.0,
    )
}

/// How instructions were counted, in one sentence; `None` when no cell was.
pub(crate) fn counting_sentence(results: &Results) -> Option<String> {
    let mut counters: Vec<&str> = results
        .cells
        .iter()
        .filter_map(|c| c.samples.counter.as_deref())
        .collect();
    counters.sort_unstable();
    counters.dedup();
    if counters.is_empty() {
        return None;
    }
    let in_process = results
        .cells
        .iter()
        .any(|c| !c.samples.instruction_iterations.is_empty());
    let inside = if in_process {
        " In-process cells: a second worker under valgrind, read before each batch's request and after its result; per call is the batch's count less the worker's cost of an empty batch, divided by its size."
    } else {
        ""
    };
    Some(format!(
        "Instructions are counted in runs of their own, after the timed ones, with address-space randomisation off and hash seeds fixed, by {}: process cells count their whole process tree.{inside} Counts do not move with the machine's load; what valgrind runs can differ from production (no AVX-512 or SHA extensions; a JIT's background compilation is counted).",
        counters.join(" and ")
    ))
}

/// The fewest and most measured runs of the cells that have any.
pub(crate) fn run_counts(results: &Results) -> Option<(usize, usize)> {
    let runs = results.cells.iter().map(|c| c.samples.len()).filter(|n| *n > 0);
    Some((runs.clone().min()?, runs.max()?))
}

/// How each cell was measured, in one sentence.
pub(crate) fn method_sentence(results: &Results) -> Option<String> {
    let (lo, hi) = run_counts(results)?;
    let warm = results.cells.iter().map(|c| c.warmup_runs).max().unwrap_or(0);
    let in_process = results.cells.iter().any(|c| !c.samples.iterations.is_empty());
    let whole = results
        .cells
        .iter()
        .any(|c| !c.samples.is_empty() && c.samples.iterations.is_empty());
    let kind = match (whole, in_process) {
        (true, true) => {
            "Process cells time the whole process; in-process cells time one call (a calibrated batch of calls divided by its size), on each runtime's monotonic clock."
        }
        (false, true) => {
            "Times are per call, in-process: each sample is a calibrated batch of calls divided by its size, on the runtime's monotonic clock."
        }
        _ => "Times are whole-process wall times on the monotonic clock.",
    };
    let span = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    };
    let order = match results.order() {
        crate::base::order::Order::Balanced => {
            "taking turns in a balanced order (over each whole block of rounds, each implementation runs after each one, itself included, equally often; a cell whose runs end mid-block is balanced only as nearly as its count allows)"
        }
        crate::base::order::Order::Interleaved => "interleaved across implementations",
        crate::base::order::Order::Blocked => {
            "in blocks, one implementation's runs after another's (drift of the machine is not cancelled)"
        }
    };
    let lead_in = match results.design.as_ref().and_then(|d| d.lead_in) {
        Some(true) if in_process => {
            " A timed batch that follows another process's turn comes right after an untimed batch of the same size (the lead-in), so waking the worker is not charged to it."
        }
        Some(false) if in_process => {
            " No lead-in (settings.lead_in = false): a timed batch that follows another process's turn also pays for waking its worker."
        }
        None if in_process => {
            " Measured before versus ran a lead-in: a timed batch that followed another process's turn also paid for waking its worker, which can cost several percent of a batch."
        }
        _ => "",
    };
    let carry_over = results
        .carry_over_coverage
        .as_ref()
        .map_or_else(String::new, |c| format!(" {c}"));
    Some(format!(
        "Each cell: {span} measured runs after up to {warm} warm-up run(s), {order}; every run's exit status and output checks verified. {kind}{lead_in}{carry_over}"
    ))
}
