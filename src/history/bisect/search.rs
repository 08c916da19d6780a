//! The search: git bisect's, along first parents, with measurements for
//! answers. The range is the commits after `good` up to `bad`; each step
//! picks the untried commit nearest the middle, measures it beside both
//! current ends in one run (`Measure`), and moves one end to it. A commit
//! that cannot be built (or whose cell fails) is skipped, as `git bisect
//! skip` would, and the next nearest is tried. The first step also checks
//! that the ends differ by more than the threshold: otherwise there is no
//! regression to find. The measurement is behind a trait, so the search is
//! tested with a fake and a recorded bisection can be replayed.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use super::step::{Attempt, Call, classify, ends_regressed, nearer};

/// What the search asks to be measured: `mid` (when there is one) beside
/// `good` and `bad`, in one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Probe {
    /// The step (1-based) and its attempt (1-based).
    pub step: usize,
    pub attempt: usize,
    pub good: String,
    pub mid: Option<String>,
    pub bad: String,
}

/// What a measurement found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Measured {
    Attempt(Attempt),
    /// The middle commit could not be built, or its cell did not end ok: why.
    Unusable(String),
}

/// Builds and measures commits.
pub(crate) trait Measure {
    fn measure(&mut self, probe: &Probe) -> Result<Measured>;
}

/// How the search decides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Settings {
    /// The ends must differ by more than this (0.03 = 3%).
    pub threshold: f64,
    /// Measurements of one step before the nearer end decides an unclear one.
    pub attempts: usize,
}

/// One step, with its evidence and what it decided.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Step {
    pub number: usize,
    pub good: String,
    /// Absent when the range had nothing between its ends left to try.
    pub mid: Option<String>,
    pub bad: String,
    pub attempts: Vec<Attempt>,
    /// Set when the middle could not be used, with why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// What the step said of its middle (unclear for a skipped one).
    pub call: Call,
    /// The call was made by the nearer end after the last attempt stayed unclear.
    #[serde(default)]
    pub forced: bool,
}

/// How a bisection ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum Ending {
    /// The first commit that is bad.
    Found { commit: String },
    /// The first bad commit is one of these: every commit between the last
    /// good one and the first bad one was skipped.
    AmongSkipped { commits: Vec<String> },
    /// good and bad do not differ by more than the threshold (or it could not be told).
    NoRegression { why: String },
}

/// A bisection from its steps to its end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Outcome {
    pub steps: Vec<Step>,
    pub ending: Ending,
    /// Commits that could not be used, with why.
    pub skipped: BTreeMap<String, String>,
    /// Distinct commits built (or found built) over the bisection.
    pub builds: usize,
}

/// The untried, unskipped index strictly between `lo` and `hi` nearest
/// their middle (the lower one on a tie).
fn pick(lo: usize, hi: usize, skipped: &[usize]) -> Option<usize> {
    let middle = (lo + hi) / 2;
    (lo + 1..hi)
        .filter(|i| !skipped.contains(i))
        .min_by_key(|i| (i.abs_diff(middle), *i))
}

/// Bisects `commits` (the good commit first, the bad one last), calling
/// `on_step` after each step.
pub(crate) fn run(
    commits: &[String],
    measure: &mut dyn Measure,
    settings: Settings,
    on_step: &mut dyn FnMut(&Step),
) -> Result<Outcome> {
    if commits.len() < 2 {
        bail!("the range needs a good and a bad commit");
    }
    let (mut lo, mut hi) = (0, commits.len() - 1);
    let mut skipped: Vec<usize> = Vec::new();
    let mut reasons = BTreeMap::new();
    let mut built = std::collections::BTreeSet::from([0, hi]);
    let mut steps: Vec<Step> = Vec::new();
    let mut ends_checked = false;
    loop {
        let mid = pick(lo, hi, &skipped);
        if mid.is_none() && ends_checked {
            break;
        }
        if let Some(m) = mid {
            built.insert(m);
        }
        let mut step = Step {
            number: steps.len() + 1,
            good: commits[lo].clone(),
            mid: mid.map(|m| commits[m].clone()),
            bad: commits[hi].clone(),
            attempts: vec![],
            skipped: None,
            call: Call::Unclear,
            forced: false,
        };
        let regressed = measure_step(&mut step, measure, settings, !ends_checked)?;
        on_step(&step);
        steps.push(step.clone());
        // A middle that could not be used says nothing of the ends: the next step checks them.
        if !ends_checked && step.skipped.is_none() {
            match regressed {
                Some(true) => ends_checked = true,
                Some(false) | None => {
                    let last = step.attempts.last().map(|a| a.bad_vs_good.text()).unwrap_or_default();
                    let why = match regressed {
                        None => format!(
                            "after {} attempts the ends' verdict is still unknown ({last})",
                            step.attempts.len()
                        ),
                        _ => format!(
                            "bad against good is {last}, not slower by more than {:.1}%",
                            settings.threshold * 100.0
                        ),
                    };
                    return Ok(finish(steps, Ending::NoRegression { why }, reasons, built.len()));
                }
            }
        }
        let Some(m) = mid else { break };
        match (&step.skipped, step.call) {
            (None, Call::Good) => lo = m,
            (None, Call::Bad) => hi = m,
            (why, _) => {
                skipped.push(m);
                let why = why.clone().unwrap_or_else(|| "no call could be made".into());
                reasons.insert(commits[m].clone(), why);
            }
        }
    }
    let between: Vec<String> = (lo + 1..hi).map(|i| commits[i].clone()).collect();
    let ending = if between.is_empty() {
        Ending::Found {
            commit: commits[hi].clone(),
        }
    } else {
        Ending::AmongSkipped {
            commits: between.into_iter().chain([commits[hi].clone()]).collect(),
        }
    };
    Ok(finish(steps, ending, reasons, built.len()))
}

fn finish(steps: Vec<Step>, ending: Ending, skipped: BTreeMap<String, String>, builds: usize) -> Outcome {
    Outcome {
        steps,
        ending,
        skipped,
        builds,
    }
}

/// Measures one step until its middle is called (or skipped), at most
/// `settings.attempts` times. With `check_ends`, also returns whether the
/// ends differ by more than the threshold (`None`: still unknown), and a
/// step whose ends say no regression stops at once.
fn measure_step(
    step: &mut Step,
    measure: &mut dyn Measure,
    settings: Settings,
    check_ends: bool,
) -> Result<Option<bool>> {
    let mut regressed = None;
    for attempt in 1..=settings.attempts.max(1) {
        let probe = Probe {
            step: step.number,
            attempt,
            good: step.good.clone(),
            mid: step.mid.clone(),
            bad: step.bad.clone(),
        };
        let a = match measure.measure(&probe)? {
            Measured::Unusable(why) => {
                step.skipped = Some(why);
                return Ok(regressed);
            }
            Measured::Attempt(a) => a,
        };
        if check_ends && regressed != Some(true) {
            regressed = ends_regressed(&a, settings.threshold);
        }
        step.call = classify(&a);
        let last = attempt == settings.attempts.max(1);
        if step.call == Call::Unclear && last && step.mid.is_some() {
            step.call = nearer(&a);
            step.forced = true;
        }
        step.attempts.push(a);
        if check_ends && regressed == Some(false) {
            return Ok(regressed);
        }
        let ends_settled = !check_ends || regressed.is_some();
        if (step.call != Call::Unclear || step.mid.is_none()) && ends_settled {
            break;
        }
    }
    if step.mid.is_some() && step.call == Call::Unclear && step.skipped.is_none() {
        // No point estimate to go by (a comparison without a ratio): skip it.
        step.skipped = Some("no comparison could be made of this commit".into());
    }
    Ok(regressed)
}
