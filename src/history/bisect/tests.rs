//! The search on a fake measurement: commits with known times, verdicts
//! read off an interval of fixed width, some commits unbuildable, some
//! steps unclear. No clock, no process.

use std::collections::{BTreeMap, HashMap, HashSet};

use anyhow::Result;

use super::record::{Recorded, Summary};
use super::search::{Ending, Measure, Measured, Probe, Settings, run};
use super::step::{Attempt, Call, Evidence};
use crate::results::Verdict;

/// Commits `c00`… with a time each; a verdict is read off the true ratio
/// with an interval of ±`half` and a noise band of 1%.
struct Fake {
    times: HashMap<String, f64>,
    unbuildable: HashSet<String>,
    /// Mid commits whose first `n` measurements come back unknown.
    unclear: HashMap<String, usize>,
    half: f64,
    probes: Vec<Probe>,
}

fn commits(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("c{i:02}")).collect()
}

impl Fake {
    /// `n` commits; from `culprit` on, 5% slower.
    fn step_at(n: usize, culprit: usize) -> Fake {
        let times = commits(n)
            .into_iter()
            .enumerate()
            .map(|(i, c)| (c, if i >= culprit { 1.05 } else { 1.0 }))
            .collect();
        Fake {
            times,
            unbuildable: HashSet::new(),
            unclear: HashMap::new(),
            half: 0.008,
            probes: vec![],
        }
    }

    fn evidence(&self, a: &str, b: &str, unclear: bool) -> Evidence {
        let ratio = self.times[a] / self.times[b];
        let (lo, hi) = if unclear {
            (ratio - 0.05, ratio + 0.05)
        } else {
            (ratio - self.half, ratio + self.half)
        };
        let band = 0.01;
        let verdict = if lo > 1.0 && ratio > 1.0 + band {
            Verdict::Slower
        } else if hi < 1.0 && ratio < 1.0 - band {
            Verdict::Faster
        } else if lo > 1.0 - band && hi < 1.0 + band {
            Verdict::Same
        } else {
            Verdict::Unknown
        };
        Evidence {
            ratio,
            ci_low: Some(lo),
            ci_high: Some(hi),
            verdict,
        }
    }
}

impl Measure for Fake {
    fn measure(&mut self, p: &Probe) -> Result<Measured> {
        self.probes.push(p.clone());
        if let Some(m) = &p.mid
            && self.unbuildable.contains(m)
        {
            return Ok(Measured::Unusable(format!("the build of {m} failed")));
        }
        let unclear = match p.mid.as_ref().and_then(|m| self.unclear.get_mut(m)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        };
        Ok(Measured::Attempt(Attempt {
            mid_vs_good: p.mid.as_ref().map(|m| self.evidence(m, &p.good, unclear)),
            mid_vs_bad: p.mid.as_ref().map(|m| self.evidence(m, &p.bad, unclear)),
            bad_vs_good: self.evidence(&p.bad, &p.good, false),
            results: None,
            run_id: None,
        }))
    }
}

const SETTINGS: Settings = Settings {
    threshold: 0.03,
    attempts: 3,
};

#[test]
fn the_culprit_is_found_wherever_it_is_in_few_builds() {
    for culprit in 1..33 {
        let mut fake = Fake::step_at(33, culprit);
        let out = run(&commits(33), &mut fake, SETTINGS, &mut |_| {}).unwrap();
        assert_eq!(
            out.ending,
            Ending::Found {
                commit: format!("c{culprit:02}")
            },
            "culprit {culprit}"
        );
        // 32 commits after the good one: five halvings, and the two ends.
        assert!(out.builds <= 7, "culprit {culprit}: {} builds", out.builds);
        assert!(out.steps.iter().all(|s| s.attempts.len() == 1 && !s.forced));
        // Every step measured its middle beside both current ends.
        for s in &out.steps {
            assert!(fake.times[&s.bad] > fake.times[&s.good]);
        }
    }
}

#[test]
fn an_unbuildable_commit_is_skipped_and_its_neighbour_tried() {
    let mut fake = Fake::step_at(17, 11);
    fake.unbuildable.insert("c08".into());
    let out = run(&commits(17), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    assert_eq!(out.ending, Ending::Found { commit: "c11".into() });
    assert_eq!(out.skipped.keys().collect::<Vec<_>>(), ["c08"]);
    let skipped_step = out.steps.iter().find(|s| s.mid.as_deref() == Some("c08")).unwrap();
    assert!(skipped_step.skipped.as_deref().unwrap().contains("build"));
    // The next step tried a commit beside it.
    let next = &out.steps[skipped_step.number];
    assert!(matches!(next.mid.as_deref(), Some("c07" | "c09")), "{next:?}");
}

#[test]
fn a_culprit_that_cannot_be_built_leaves_the_candidates() {
    let mut fake = Fake::step_at(9, 5);
    fake.unbuildable.insert("c05".into());
    fake.unbuildable.insert("c04".into());
    let out = run(&commits(9), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    assert_eq!(
        out.ending,
        Ending::AmongSkipped {
            commits: vec!["c04".into(), "c05".into(), "c06".into()]
        }
    );
}

#[test]
fn an_unclear_step_is_measured_again_then_decided_by_the_nearer_end() {
    let mut fake = Fake::step_at(9, 3);
    fake.unclear.insert("c04".into(), 1);
    let out = run(&commits(9), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    let step = out.steps.iter().find(|s| s.mid.as_deref() == Some("c04")).unwrap();
    assert_eq!((step.attempts.len(), step.call, step.forced), (2, Call::Bad, false));
    assert_eq!(out.ending, Ending::Found { commit: "c03".into() });

    let mut fake = Fake::step_at(9, 3);
    fake.unclear.insert("c04".into(), 10);
    let out = run(&commits(9), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    let step = out.steps.iter().find(|s| s.mid.as_deref() == Some("c04")).unwrap();
    assert_eq!((step.attempts.len(), step.call, step.forced), (3, Call::Bad, true));
    assert_eq!(out.ending, Ending::Found { commit: "c03".into() });
}

#[test]
fn no_regression_between_the_ends_stops_at_once() {
    let mut fake = Fake::step_at(9, 100);
    let out = run(&commits(9), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    assert!(matches!(out.ending, Ending::NoRegression { .. }), "{:?}", out.ending);
    assert_eq!(out.steps.len(), 1);
    // Slower, but by less than the threshold: no regression either.
    let mut fake = Fake::step_at(9, 4);
    let out = run(
        &commits(9),
        &mut fake,
        Settings {
            threshold: 0.08,
            ..SETTINGS
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(matches!(out.ending, Ending::NoRegression { .. }));
}

#[test]
fn adjacent_ends_are_checked_and_the_bad_one_named() {
    let mut fake = Fake::step_at(2, 1);
    let out = run(&commits(2), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    assert_eq!(out.ending, Ending::Found { commit: "c01".into() });
    assert_eq!((out.steps.len(), out.steps[0].mid.as_ref()), (1, None));
}

fn summary(commits: Vec<String>) -> Summary {
    Summary {
        format: super::record::FORMAT,
        suite: "s.toml".into(),
        cell: "op/x/".into(),
        repo: ".".into(),
        good: commits[0].clone(),
        bad: commits[commits.len() - 1].clone(),
        threshold: SETTINGS.threshold,
        attempts: SETTINGS.attempts,
        subjects: vec![String::new(); commits.len()],
        commits,
        steps: vec![],
        ending: None,
        skipped: BTreeMap::new(),
        builds: 0,
    }
}

#[test]
fn a_recorded_bisection_replays_to_the_same_commit() {
    let mut fake = Fake::step_at(33, 20);
    fake.unbuildable.insert("c16".into());
    fake.unclear.insert("c20".into(), 1);
    let out = run(&commits(33), &mut fake, SETTINGS, &mut |_| {}).unwrap();
    let mut s = summary(commits(33));
    s.finish(out.clone());
    let text = serde_json::to_string(&s).unwrap();
    let read: Summary = serde_json::from_str(&text).unwrap();
    let replayed = run(&read.commits, &mut Recorded::new(&read), SETTINGS, &mut |_| {}).unwrap();
    // The same steps and calls (figures pass through JSON's decimal text).
    let calls = |o: &super::search::Outcome| {
        o.steps
            .iter()
            .map(|s| (s.mid.clone(), s.call, s.attempts.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(calls(&replayed), calls(&out));
    assert_eq!(
        (replayed.ending, replayed.skipped, replayed.builds),
        (out.ending, out.skipped, out.builds)
    );
    // A summary whose evidence says otherwise does not replay.
    let mut edited = read.clone();
    let first = &mut edited.steps[1].attempts[0];
    std::mem::swap(&mut first.mid_vs_good, &mut first.mid_vs_bad);
    assert!(run(&edited.commits, &mut Recorded::new(&edited), SETTINGS, &mut |_| {}).is_err());
}
