//! What a bisection leaves behind: `bisect.log`, one paragraph per step as
//! it happens (git bisect's log, with the evidence), and `bisect.json`, the
//! replayable summary — the range, the settings and every step's
//! measurements — rewritten after each step. `versus bisect --replay`
//! feeds the recorded measurements back through the same search, which
//! must come to the same commit: the conclusion follows from the evidence
//! written down, by the rules of the versus that replays it.

use std::collections::{BTreeMap, VecDeque};
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::search::{Ending, Measure, Measured, Outcome, Probe, Step};
use super::step::Call;

/// The version of `bisect.json`'s layout.
pub(crate) const FORMAT: u32 = 1;

/// The replayable summary of a bisection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Summary {
    pub format: u32,
    /// The suite file and the cell bisected (`op/impl/params`).
    pub suite: String,
    pub cell: String,
    /// The repository, and the revisions as given.
    pub repo: String,
    pub good: String,
    pub bad: String,
    pub threshold: f64,
    pub attempts: usize,
    /// The range, the good commit first, and each commit's subject.
    pub commits: Vec<String>,
    pub subjects: Vec<String>,
    pub steps: Vec<Step>,
    /// Absent while the bisection runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    #[serde(default)]
    pub skipped: BTreeMap<String, String>,
    #[serde(default)]
    pub builds: usize,
}

impl Summary {
    pub(crate) fn read(path: &Path) -> Result<Summary> {
        let text = fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let s: Summary =
            serde_json::from_str(&text).with_context(|| format!("{}: not a bisect.json", path.display()))?;
        if s.format != FORMAT {
            bail!(
                "{}: bisect.json format {} (this versus reads {FORMAT})",
                path.display(),
                s.format
            );
        }
        Ok(s)
    }

    pub(crate) fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))
    }

    /// A commit's short name and subject: `1a2b3c4d5e "add a loop"`.
    pub(crate) fn name(&self, commit: &str) -> String {
        let short: String = commit.chars().take(10).collect();
        match self
            .commits
            .iter()
            .position(|c| c == commit)
            .and_then(|i| self.subjects.get(i))
        {
            Some(s) if !s.is_empty() => format!("{short} \"{s}\""),
            _ => short,
        }
    }

    /// Sets the end of the bisection from the search's outcome.
    pub(crate) fn finish(&mut self, outcome: Outcome) {
        self.steps = outcome.steps;
        self.ending = Some(outcome.ending);
        self.skipped = outcome.skipped;
        self.builds = outcome.builds;
    }
}

/// A step as the log says it.
pub(crate) fn step_text(s: &Summary, step: &Step) -> String {
    let short = |c: &str| c.chars().take(10).collect::<String>();
    let mut out = match &step.mid {
        Some(m) => format!(
            "step {}: {} between good {} and bad {}\n",
            step.number,
            s.name(m),
            short(&step.good),
            short(&step.bad)
        ),
        None => format!(
            "step {}: good {} against bad {}\n",
            step.number,
            short(&step.good),
            short(&step.bad)
        ),
    };
    for (i, a) in step.attempts.iter().enumerate() {
        let mut parts = Vec::new();
        if let Some(g) = a.mid_vs_good {
            parts.push(format!("mid/good {}", g.text()));
        }
        if let Some(b) = a.mid_vs_bad {
            parts.push(format!("mid/bad {}", b.text()));
        }
        parts.push(format!("bad/good {}", a.bad_vs_good.text()));
        let at = a.results.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
        out.push_str(&format!("  attempt {}: {}{at}\n", i + 1, parts.join("; ")));
    }
    let call = match (&step.skipped, step.call) {
        (Some(why), _) => format!("skipped: {why}"),
        (None, Call::Good) => "good".into(),
        (None, Call::Bad) => "bad".into(),
        (None, Call::Unclear) if step.mid.is_none() => "the ends only".into(),
        (None, Call::Unclear) => "no call: the ends decided the bisection".into(),
    };
    let forced = if step.forced {
        " (still unclear after the last attempt: the nearer end decided)"
    } else {
        ""
    };
    out.push_str(&format!("  => {call}{forced}\n"));
    out
}

/// The conclusion, as the bisection ends with it.
pub(crate) fn conclusion(s: &Summary) -> String {
    let mut out = match &s.ending {
        Some(Ending::Found { commit }) => format!("first bad commit: {}\n", s.name(commit)),
        Some(Ending::AmongSkipped { commits }) => format!(
            "the first bad commit could be any of (the others could not be used): {}\n",
            commits.iter().map(|c| s.name(c)).collect::<Vec<_>>().join(", ")
        ),
        Some(Ending::NoRegression { why }) => format!("no regression to bisect: {why}\n"),
        None => "the bisection did not finish\n".into(),
    };
    out.push_str(&format!(
        "{} step(s), {} commit(s) of {} built",
        s.steps.len(),
        s.builds,
        s.commits.len()
    ));
    if !s.skipped.is_empty() {
        out.push_str(&format!(
            "; skipped: {}",
            s.skipped
                .iter()
                .map(|(c, why)| format!("{} ({why})", s.name(c)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push('\n');
    out
}

/// Measurements played back from a summary, in the order they were taken.
pub(crate) struct Recorded {
    queue: VecDeque<(Probe, Measured)>,
}

impl Recorded {
    pub(crate) fn new(s: &Summary) -> Recorded {
        let mut queue = VecDeque::new();
        for step in &s.steps {
            let probe = |attempt| Probe {
                step: step.number,
                attempt,
                good: step.good.clone(),
                mid: step.mid.clone(),
                bad: step.bad.clone(),
            };
            for (i, a) in step.attempts.iter().enumerate() {
                queue.push_back((probe(i + 1), Measured::Attempt(a.clone())));
            }
            if let Some(why) = &step.skipped
                && step.attempts.is_empty()
            {
                queue.push_back((probe(1), Measured::Unusable(why.clone())));
            }
        }
        Recorded { queue }
    }
}

impl Measure for Recorded {
    fn measure(&mut self, probe: &Probe) -> Result<Measured> {
        let Some((recorded, measured)) = self.queue.pop_front() else {
            bail!(
                "the replay asks for step {} attempt {}, which the summary does not hold: its decisions differ from the recorded ones",
                probe.step,
                probe.attempt
            );
        };
        if recorded != *probe {
            bail!(
                "at step {} the replay measures {:?} between {} and {}, but the recorded bisection measured {:?} between {} and {}: its decisions differ",
                probe.step,
                probe.mid,
                probe.good,
                probe.bad,
                recorded.mid,
                recorded.good,
                recorded.bad
            );
        }
        Ok(measured)
    }
}
