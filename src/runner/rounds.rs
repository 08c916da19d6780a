//! Rounds: warm-up first, then measured rounds, each cell of a group taking
//! one sample per round in the plan's order (`plan::order`: balanced,
//! rotated, or each cell's runs in one block), until the group's stop rule
//! says enough. Each measured run's place in its round, the implementation
//! that ran just before it and the gap since are recorded
//! (`results::RunOrder`). The clock that the stop rules and the gaps read is
//! injected (`Clock`), so `max_time` is tested exactly with a fake one.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::failure::{Failure, describe, disk_full, harness_fault};
use super::inputs::PayloadFile;
use super::state::{CellState, Mode};
use super::{Events, Runner, hooks, inprocess, policy, usage};
use crate::base::order::Order;
use crate::base::outcome::{HarnessFault, Outcome};
use crate::exec::interrupt::interrupted;
use crate::exec::tail;
use crate::exec::{Executor, Exit, RunRecord, RunRequest};
use crate::payload;
use crate::plan::{self, Group, Sampling};
use crate::results::{RunOrder, StopRule};

/// Monotonic time as the stop rules see it.
pub(crate) trait Clock {
    /// Time since some fixed origin.
    fn now(&self) -> Duration;
}

/// The real monotonic clock.
pub(crate) struct SystemClock(Instant);

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock(Instant::now())
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// Why adaptive sampling stops every cell still going, if it does now:
/// after `measured` rounds, `elapsed` into the group's measured rounds.
pub(super) fn sampling_limit(measured: u32, elapsed: Duration, max_runs: u32, max_time: Duration) -> Option<StopRule> {
    if measured >= max_runs {
        Some(StopRule::MaxRuns)
    } else if elapsed >= max_time {
        Some(StopRule::MaxTime)
    } else {
        None
    }
}

/// hyperfine's run count: after the first measured round each cell's count
/// is set to what fits in `min_time` at that run's pace (within `min_runs`
/// and `max_runs`); a cell that has its count is done.
fn min_time_targets(states: &mut [CellState], measured: u32, min_runs: u32, min_time: Duration, max_runs: u32) {
    for st in states.iter_mut().filter(|s| s.outcome.is_none() && !s.done) {
        let taken = st.samples.wall_ns.len() as u32;
        if measured == 1 {
            let first_ns = st.samples.wall_ns.first().unwrap_or(1).max(1);
            let fit = (min_time.as_nanos() / u128::from(first_ns)).min(u128::from(u32::MAX)) as u32;
            st.target_runs = fit.max(min_runs).min(max_runs.max(1));
        }
        if taken >= st.target_runs {
            st.done = true;
        }
    }
}

/// Where one group's rounds stand.
struct Progress {
    round: usize,
    planned: usize,
}

/// The run before the next one.
#[derive(Default)]
pub(super) struct Previous {
    /// Its implementation (index into the suite's), when it was of this
    /// visit of the group.
    pub implementation: Option<usize>,
    /// When it ended, on the runner's clock, whichever group it was of.
    pub ended: Option<Duration>,
    /// The span of the run just taken (start, end), set around the run itself.
    pub span: Option<(Duration, Duration)>,
}

impl Runner<'_> {
    /// Warm-up rounds, then measured rounds, as the group's policy says.
    /// Returns true when interrupted.
    pub(super) fn sample_rounds(
        &mut self,
        states: &mut [CellState],
        group: &Group,
        payload: Option<&PayloadFile>,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        if self.plan.order == Order::Blocked {
            // hyperfine's order: each cell's warm-up and measured runs in one
            // block, its stop rules its own.
            return (0..states.len()).any(|i| self.sample_cells(&mut states[i..=i], group, payload, exec, events));
        }
        self.sample_cells(states, group, payload, exec, events)
    }

    /// Warm-up rounds, then measured rounds, of `states` taking turns.
    fn sample_cells(
        &mut self,
        states: &mut [CellState],
        group: &Group,
        payload: Option<&PayloadFile>,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let started = self.clock.now();
        let mut at = Progress {
            round: 0,
            planned: (group.warmup + group.runs) as usize,
        };
        if self.warm_up(states, group, payload, &mut at, exec, events) {
            return true;
        }
        recalibrate(states);
        self.measure(states, group, payload, &mut at, started, exec, events)
    }

    /// Warm-up rounds: a fixed count, or until each cell's series is level.
    fn warm_up(
        &mut self,
        states: &mut [CellState],
        group: &Group,
        payload: Option<&PayloadFile>,
        at: &mut Progress,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let mut warm_rounds = 0u32;
        loop {
            let wants: Vec<bool> = states
                .iter()
                .map(|st| {
                    st.outcome.is_none()
                        && if group.warmup_auto {
                            warm_rounds < policy::AUTO_WARMUP_MAX && !policy::warmed_up(&st.warmup_per_call())
                        } else {
                            warm_rounds < group.warmup
                        }
                })
                .collect();
            if !wants.contains(&true) {
                return false;
            }
            if self.take_round(states, &wants, at, true, payload, group, exec, events) {
                return true;
            }
            at.round += 1;
            warm_rounds += 1;
        }
    }

    /// Measured rounds until the group's sampling rule stops every cell.
    #[allow(clippy::too_many_arguments)]
    fn measure(
        &mut self,
        states: &mut [CellState],
        group: &Group,
        payload: Option<&PayloadFile>,
        at: &mut Progress,
        started: Duration,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let mut measured = 0u32;
        loop {
            let wants: Vec<bool> = states.iter().map(|st| st.outcome.is_none() && !st.done).collect();
            if !wants.contains(&true) {
                return false;
            }
            if self.take_round(states, &wants, at, false, payload, group, exec, events) {
                return true;
            }
            self.read_speed();
            at.round += 1;
            measured += 1;
            let (max_runs, max_time) = match group.sampling {
                Sampling::Fixed if measured >= group.runs => return false,
                Sampling::Fixed => continue,
                Sampling::MinTime { min_time, max_runs } => {
                    min_time_targets(states, measured, group.runs, min_time, max_runs);
                    continue;
                }
                Sampling::Precision { max_runs, max_time, .. } | Sampling::Resolve { max_runs, max_time, .. } => {
                    (max_runs, max_time)
                }
            };
            if measured < group.runs {
                continue;
            }
            match group.sampling {
                Sampling::Precision { precision, .. } => {
                    for st in states.iter_mut().filter(|s| s.outcome.is_none() && !s.done) {
                        if policy::precise(&st.samples.per_call_ns(), precision) {
                            st.done = true;
                            st.stop_rule = StopRule::Precision;
                        }
                    }
                }
                Sampling::Resolve { band, .. } => self.resolve(states, band),
                _ => {}
            }
            let elapsed = self.clock.now().saturating_sub(started);
            if let Some(rule) = sampling_limit(measured, elapsed, max_runs, max_time) {
                for st in states.iter_mut().filter(|s| s.outcome.is_none() && !s.done) {
                    st.stop_rule = rule;
                }
                return false;
            }
        }
    }

    /// One reading of the machine's speed after a measured round, while
    /// the readings stay inside their share of the run (`exec::speed`).
    fn read_speed(&mut self) {
        use crate::exec::{read_speed, speed_affordable};
        if speed_affordable(self.speed.len(), self.speed_spent, self.clock.now()) {
            let ns = read_speed();
            self.speed_spent += Duration::from_nanos(ns);
            self.speed.push(ns);
        }
    }

    /// `--resolve`: ends every cell still going once each comparison of the
    /// group against its baseline is settled. The cells go on together (a
    /// comparison needs both sides' runs), so none stops before all do.
    fn resolve(&self, states: &mut [CellState], band: f64) {
        let going: Vec<usize> = (0..states.len()).filter(|&i| states[i].outcome.is_none()).collect();
        if going.len() < 2 {
            for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
                (st.done, st.stop_rule) = (true, StopRule::Resolved);
            }
            return;
        }
        let names: Vec<&str> = going
            .iter()
            .map(|&i| self.suite.implementations[states[i].imp].name.as_str())
            .collect();
        let cells: Vec<Vec<f64>> = going.iter().map(|&i| states[i].samples.per_call_ns()).collect();
        let Some(baseline) = policy::running_baseline(&names, &cells, self.suite.baseline.as_deref()) else {
            return;
        };
        if policy::settled(&cells, baseline, band) {
            for &i in &going {
                (states[i].done, states[i].stop_rule) = (true, StopRule::Resolved);
            }
        }
    }

    /// One round: each wanting cell takes one sample, in the plan's order for
    /// `round`. Returns true when interrupted.
    #[allow(clippy::too_many_arguments)]
    fn take_round(
        &mut self,
        states: &mut [CellState],
        wants: &[bool],
        at: &Progress,
        warmup: bool,
        payload: Option<&PayloadFile>,
        group: &Group,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let (round, planned) = (at.round, at.planned);
        let n = states.len();
        if round >= planned {
            events.runs_added(wants.iter().filter(|w| **w).count() as u64);
        }
        let mut position = 0;
        for s in plan::round(self.plan.order, n, round) {
            if !wants[s] || states[s].outcome.is_some() {
                continue;
            }
            self.previous.span = None;
            if !warmup && self.plan.lead_in && self.previous.implementation != Some(states[s].imp) {
                lead_in(&mut states[s]);
                if interrupted() {
                    return true;
                }
                if states[s].outcome.is_some() {
                    // Counted as the run that failed, as a failed timed batch is.
                    events.run_done();
                    events.runs_dropped(planned.saturating_sub(round + 1) as u64);
                    continue;
                }
            }
            if let Some(m) = self.meter.as_mut() {
                m.begin();
            }
            let taken = states[s].samples.len();
            if matches!(states[s].mode, Mode::Process(_)) {
                self.process_run(&mut states[s], warmup, payload, group, exec);
            } else {
                self.sample_worker(&mut states[s], warmup);
            }
            if interrupted() {
                return true;
            }
            self.note_order(&mut states[s], taken, position, group);
            position += 1;
            if let Some(m) = self.meter.as_mut() {
                let readings = m.end();
                let st = &mut states[s];
                let calls = if st.samples.len() > taken {
                    st.samples.iterations.last().copied().unwrap_or(1)
                } else {
                    0
                };
                usage::charge(st, m.as_ref(), &readings, calls);
            }
            events.run_done();
            if states[s].outcome.is_some() {
                events.runs_dropped(planned.saturating_sub(round + 1) as u64);
            }
        }
        false
    }

    /// Records where the run just taken stood (when it added a measured
    /// sample), and makes it the run before the next one.
    fn note_order(&mut self, st: &mut CellState, taken: usize, position: usize, group: &Group) {
        let Some((start, end)) = self.previous.span.take() else {
            return;
        };
        if st.samples.len() > taken {
            let gap_ns = self
                .previous
                .ended
                .map_or(0, |ended| start.saturating_sub(ended).as_nanos() as u64);
            let after = self
                .previous
                .implementation
                .and_then(|p| group.implementations.iter().position(|i| *i == p));
            let suite = self.suite;
            st.samples
                .order
                .get_or_insert_with(|| RunOrder {
                    implementations: group
                        .implementations
                        .iter()
                        .map(|i| suite.implementations[*i].name.clone())
                        .collect(),
                    ..Default::default()
                })
                .push(position, after, gap_ns);
        }
        self.previous.implementation = Some(st.imp);
        self.previous.ended = Some(end);
    }

    /// One run of a process cell, with its `prepare` and `conclude` commands around it.
    fn process_run(
        &mut self,
        st: &mut CellState,
        warmup: bool,
        payload: Option<&PayloadFile>,
        group: &Group,
        exec: &mut dyn Executor,
    ) {
        let Mode::Process(req) = &st.mode else { return };
        if let Some(out) = &st.out {
            let _ = fs::remove_file(out);
        }
        if let Err(failure) = hooks::run_all(exec, "prepare", &st.hooks.prepare) {
            st.fail_for(Outcome::Failed, failure);
            return;
        }
        // Warm-up runs measure memory exactly (see RunRequest::exact_memory).
        let start = self.clock.now();
        let record = if warmup {
            exec.run(&RunRequest {
                exact_memory: true,
                ..req.clone()
            })
        } else {
            exec.run(req)
        };
        self.previous.span = Some((start, self.clock.now()));
        let concluded = hooks::run_all(exec, "conclude", &st.hooks.conclude);
        if interrupted() {
            return;
        }
        self.absorb(st, record, warmup, payload, group);
        if let Err(failure) = concluded
            && st.outcome.is_none()
        {
            st.fail_for(Outcome::Failed, failure);
        }
    }

    /// Classifies one process run and records it into its cell.
    pub(super) fn absorb(
        &mut self,
        st: &mut CellState,
        r: RunRecord,
        warmup: bool,
        payload: Option<&PayloadFile>,
        group: &Group,
    ) {
        let op = &self.suite.operations[group.operation];
        let Mode::Process(req) = &st.mode else { return };
        let accepted = r.exit == Exit::Code(op.exit_code) || (op.ignore_failure && matches!(r.exit, Exit::Code(_)));
        if !accepted {
            let (outcome, mut msg) = describe(&r.exit, op.exit_code);
            if let Some(err) = &req.stderr {
                // The last lines are where runtimes put the error itself.
                let t = tail(err, 2000);
                let lines: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
                if !lines.is_empty() {
                    msg = format!("{msg}; stderr: {}", lines[lines.len().saturating_sub(3)..].join(" / "));
                }
            }
            let capture_dir = req.stderr.as_deref().and_then(Path::parent);
            let fault = harness_fault(&r.exit, capture_dir);
            if let (Some(HarnessFault::OutputFull), Some(dir)) = (fault, capture_dir) {
                msg = format!(
                    "{msg}; the disk holding its output ({}) is full: No space left on device",
                    dir.display()
                );
            }
            let message = format!("{} run: {msg}", if warmup { "warm-up" } else { "measured" });
            st.fail_for(outcome, Failure { message, fault });
            return;
        }
        if let Some(out) = st.out.clone().filter(|_| op.checks_output()) {
            let digest = if out.is_file() {
                payload::digest_file(&out).map_err(|e| format!("cannot read the output: {e}"))
            } else {
                Err(format!("the run produced no output file ({})", out.display()))
            };
            if let Err(message) = digest.and_then(|d| self.check_digest(d, payload, group).map(|()| st.digests.push(d)))
            {
                // Output cut short by a full disk is versus's folder's fault, not the program's.
                let fault = out.parent().filter(|d| disk_full(d)).map(|_| HarnessFault::OutputFull);
                st.fail_for(Outcome::WrongOutput, Failure { message, fault });
                return;
            }
        }
        if warmup {
            st.warmup_wall_ns.push(r.wall.0);
            st.samples.warmup_max_rss_bytes.push(r.max_rss.0);
            st.samples.warmup_rss_floor_bytes.push(r.rss_floor.0);
        } else {
            st.samples.wall_ns.push(r.wall.0);
            st.samples.user_ns.push(r.user.0);
            st.samples.sys_ns.push(r.sys.0);
            st.samples.max_rss_bytes.push(r.max_rss.0);
            st.samples.rss_floor_bytes.push(r.rss_floor.0);
            if let Exit::Code(code) = r.exit {
                st.samples.push_exit_code(code);
            }
        }
    }

    /// Takes one in-process sample and records it into its cell.
    fn sample_worker(&mut self, st: &mut CellState, warmup: bool) {
        let Mode::Worker(w) = &mut st.mode else { return };
        let start = self.clock.now();
        let sample = w.sample();
        self.previous.span = Some((start, self.clock.now()));
        match sample {
            Ok(s) if warmup => {
                st.warmup_wall_ns.push(s.elapsed_ns);
                st.samples.warmup_iterations.push(s.iterations);
            }
            Ok(s) => {
                st.samples.wall_ns.push(s.elapsed_ns);
                st.samples.iterations.push(s.iterations);
                st.samples.alloc_bytes.extend(s.alloc_bytes);
                st.samples.gc_count.extend(s.gc_count);
            }
            Err(e) => {
                let phase = if warmup { "warm-up" } else { "measured" };
                st.fail(inprocess::outcome_of(&e), format!("{phase} batch: {e}"));
            }
        }
    }
}

/// The untimed batch an in-process cell runs before a timed one that follows
/// another process's turn or opens a visit (`settings.lead_in`). A worker
/// woken after sitting idle while another process ran is slower for its
/// first milliseconds: on the 2-core machine of docs/results/lead-in.md a
/// Go worker's batch lost up to 9% to it (about 1.3 ms per 10-20 ms batch),
/// other languages' up to 3%, and a batch taken right after the worker's
/// own did not. Without the lead-in that cost is charged to whichever
/// implementation follows another, a carry-over the harness itself makes.
fn lead_in(st: &mut CellState) {
    let Mode::Worker(w) = &mut st.mode else { return };
    if let Err(e) = w.sample() {
        st.fail(inprocess::outcome_of(&e), format!("lead-in batch: {e}"));
    }
}

/// Warm code is faster than the code calibration saw: grows the batches of
/// in-process cells that now fall short.
fn recalibrate(states: &mut [CellState]) {
    for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
        if let Mode::Worker(w) = &mut st.mode {
            match w.calibrate() {
                Ok(()) => st.batch = w.batch,
                Err(e) => st.fail(inprocess::outcome_of(&e), format!("calibration: {e}")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adaptive_sampling_stops_at_the_first_limit_reached() {
        let s = Duration::from_secs;
        assert_eq!(sampling_limit(5, s(1), 10, s(3)), None);
        assert_eq!(sampling_limit(10, s(1), 10, s(3)), Some(StopRule::MaxRuns));
        assert_eq!(sampling_limit(5, s(3), 10, s(3)), Some(StopRule::MaxTime));
        assert_eq!(sampling_limit(10, s(9), 10, s(3)), Some(StopRule::MaxRuns));
    }
}
