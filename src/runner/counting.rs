//! Counted rounds: with `measure = ["wall", "instructions"]`, after a
//! group's timed rounds every cell still ok takes its counted runs, in turn
//! as timed runs do (A B C, B C A, …), each under the instruction counter
//! (`exec::counter`). Counted runs are runs of their own: a run under
//! valgrind takes tens of times as long, so its time is nobody's figure, and
//! the timed runs stay exactly as they are without counting.
//!
//! A process cell's counted run is its command under the counter, checked as
//! a timed run is (exit status, output checks, and the same output as the
//! timed runs). An in-process cell gets a second worker, under Callgrind,
//! with the timed cell's batch size: it warms up as the timed worker did,
//! then the core reads the worker's counters through vgdb before each
//! batch's request and after its result. That window holds the worker's
//! handling of the request as well as the calls, so the worker's cost of an
//! empty batch is estimated first (batches of 1 and of 2 calls, five each:
//! empty = 2 × one − two, from the fewest of each, since a runtime's
//! background threads only ever add instructions to a batch) and every
//! batch's figure per call is its count less that cost, divided by its calls.
//!
//! A counted run that fails does not change the cell's outcome (its time
//! was measured): the cell's counting stops, and `instructions_error` says why.

use std::path::PathBuf;
use std::time::Duration;

use super::failure::describe;
use super::inprocess::{InProcess, Spawn};
use super::inputs::PayloadFile;
use super::state::{CellState, CountingWorker, Mode};
use super::{Events, Runner, hooks};
use crate::exec::interrupt::interrupted;
use crate::exec::{CountedWorker, Counter, executed_between};
use crate::exec::{Executor, Exit};
use crate::payload;
use crate::plan::Group;

/// How many times a counted run may take the timed run's time limit:
/// valgrind runs a program tens of times slower, a JVM's start-up more.
pub(super) const COUNT_SLOWDOWN: u32 = 50;

/// Batches of one and of two calls each taken this many times, for the
/// empty-batch cost.
const EMPTY_PROBES: usize = 5;

/// Instructions a counted batch aims at (see the module header).
pub(super) const COUNT_TARGET: u64 = 20_000_000;

/// Most warm-up batches under the counter.
const MAX_WARMUP: usize = 20;

/// Two warm-up batches whose counts per call differ by less than this have settled.
const SETTLED: f64 = 0.01;

/// The counted runs' time limit for a group whose runs have `timeout`.
fn counted_timeout(timeout: Duration) -> Duration {
    timeout.saturating_mul(COUNT_SLOWDOWN)
}

impl CountingWorker {
    /// Instructions of one batch of `calls` (request handling included).
    fn batch(&mut self, calls: u64) -> Result<u64, String> {
        self.worker.batch = calls;
        self.worker.sample().map_err(|e| format!("batch: {e}"))?;
        let now = self.counted.read(self.worker.pid())?;
        let n = executed_between(&self.last, &now);
        self.last = now;
        Ok(n)
    }

    /// Estimates the empty-batch cost, 2 × (one call) − (two calls) from
    /// the fewest of each (background threads only add: a median would carry
    /// their noise, doubled, into every batch of the cell); returns the
    /// instructions of one call.
    fn estimate_empty(&mut self) -> Result<u64, String> {
        let (mut one, mut two) = (Vec::new(), Vec::new());
        for _ in 0..EMPTY_PROBES {
            one.push(self.batch(1)?);
            two.push(self.batch(2)?);
        }
        let fewest = |v: &[u64]| v.iter().copied().min().unwrap_or(0);
        let (one, two) = (fewest(&one), fewest(&two));
        self.empty = (2 * one).saturating_sub(two).min(one);
        Ok(one - self.empty)
    }

    /// Warm-up batches of `calls`: at least `least`, then until two in a row
    /// agree per call within `SETTLED`, at most `MAX_WARMUP`.
    fn warm_up(&mut self, calls: u64, least: usize) -> Result<(), String> {
        let mut last: Option<u64> = None;
        for done in 0..MAX_WARMUP {
            let n = self.batch(calls)?;
            let settled = last.is_some_and(|l| (n as f64 - l as f64).abs() <= SETTLED * l.max(1) as f64);
            if done + 1 >= least && settled {
                break;
            }
            last = Some(n);
        }
        Ok(())
    }
}

/// Calls in a counted batch: about `COUNT_TARGET` instructions (and at least
/// a hundred empty batches' worth) at `per_call`, between 1 and `timed` calls.
pub(super) fn counted_batch_size(per_call: u64, empty: u64, timed: u64) -> u64 {
    let target = COUNT_TARGET.max(empty.saturating_mul(100));
    target.div_ceil(per_call.max(1)).clamp(1, timed.max(1))
}

impl Runner<'_> {
    /// The counted rounds of a group (see the module header). Returns true when interrupted.
    pub(super) fn count_rounds(
        &mut self,
        states: &mut [CellState],
        group: &Group,
        payload: Option<&PayloadFile>,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let Some(counter) = self.counter.clone().filter(|_| group.counted > 0) else {
            return false;
        };
        let counting = |st: &CellState| st.outcome.is_none() && st.samples.instructions_error.is_none();
        for st in states.iter_mut().filter(|s| counting(s)) {
            if matches!(st.mode, Mode::Worker(_)) {
                events.note("starting a worker under the instruction counter");
                self.start_counting(st, &counter, group, payload);
            }
        }
        let n = states.len();
        for round in 0..group.counted as usize {
            for k in 0..n {
                let st = &mut states[(k + round) % n];
                if !counting(st) {
                    continue;
                }
                match st.mode {
                    Mode::Process(_) => self.counted_run(st, &counter, group, payload, exec),
                    Mode::Worker(_) => counted_batch(st),
                }
                if interrupted() {
                    return true;
                }
                events.run_done();
                if !counting(st) {
                    events.runs_dropped((group.counted as usize - round - 1) as u64);
                }
            }
        }
        for st in states.iter_mut() {
            if let Some(c) = st.counting.take() {
                c.worker.finish();
            }
        }
        false
    }

    /// Where a cell's counted runs leave their counts.
    fn count_dir(&self, group: &Group, st: &CellState) -> PathBuf {
        self.cell_dir(group.operation, st.imp, &group.params).join("counted")
    }

    /// One counted run of a process cell, with its `prepare` and `conclude` around it.
    fn counted_run(
        &mut self,
        st: &mut CellState,
        counter: &Counter,
        group: &Group,
        payload: Option<&PayloadFile>,
        exec: &mut dyn Executor,
    ) {
        let scratch = self.count_dir(group, st);
        let Mode::Process(req) = &st.mode else { return };
        let mut wrapped = match counter.wrap(req, &scratch) {
            Ok(w) => w,
            Err(e) => return stop(st, format!("cannot prepare {}: {e}", scratch.display())),
        };
        wrapped.timeout = counted_timeout(req.timeout);
        if let Some(out) = &st.out {
            let _ = std::fs::remove_file(out);
        }
        if let Err(failure) = hooks::run_all(exec, "prepare", &st.hooks.prepare) {
            return stop(st, failure.message);
        }
        let record = exec.run(&wrapped);
        let concluded = hooks::run_all(exec, "conclude", &st.hooks.conclude);
        if interrupted() {
            return;
        }
        let op = &self.suite.operations[group.operation];
        let accepted =
            record.exit == Exit::Code(op.exit_code) || (op.ignore_failure && matches!(record.exit, Exit::Code(_)));
        if !accepted {
            let (_, msg) = describe(&record.exit, op.exit_code);
            return stop(st, format!("{msg}{}", crate::exec::log_tail(&scratch)));
        }
        if let Err(failure) = concluded {
            return stop(st, failure.message);
        }
        if let Some(out) = st.out.clone().filter(|_| op.checks_output()) {
            let same = payload::digest_file(&out)
                .map_err(|e| format!("cannot read the output: {e}"))
                .and_then(|d| {
                    self.check_digest(d, payload, group)?;
                    match st.digests.first() {
                        Some(timed) if *timed != d => Err("its output differs from the timed runs'".into()),
                        _ => Ok(()),
                    }
                });
            if let Err(why) = same {
                return stop(st, why);
            }
        }
        match counter.read(&scratch) {
            Ok(n) => {
                st.samples.instructions.push(n);
                st.samples.counter.get_or_insert_with(|| counter.process_name());
            }
            Err(why) => stop(st, why),
        }
    }

    /// Starts an in-process cell's worker under the counter: warmed up as
    /// the timed worker was, its empty-batch cost estimated, its output checked.
    fn start_counting(&mut self, st: &mut CellState, counter: &Counter, group: &Group, payload: Option<&PayloadFile>) {
        let Some(name) = counter.worker_name() else {
            return stop(
                st,
                "in-process cells are counted by valgrind, which is not installed".into(),
            );
        };
        let Some(launch) = st.launch.clone() else { return };
        let scratch = self.count_dir(group, st);
        let counted = match CountedWorker::new(&launch.argv, &launch.env, &scratch) {
            Ok(c) => c,
            Err(e) => return stop(st, format!("cannot prepare {}: {e}", scratch.display())),
        };
        let spawn = Spawn {
            argv: &counted.argv,
            cwd: &launch.cwd,
            env: &counted.env,
            log: &scratch.join("worker.log"),
            fixed_layout: true,
        };
        let timeout = counted_timeout(group.timeout);
        let worker = InProcess::open(&spawn, &launch.operation, launch.setup.clone(), timeout);
        let w = match worker {
            Ok(w) => w,
            Err(e) => return stop(st, format!("worker under valgrind: {e}{}", counted.log_tail())),
        };
        let last = match counted.read(w.pid()) {
            Ok(l) => l,
            Err(why) => return stop(st, why),
        };
        let mut c = CountingWorker {
            worker: w,
            counted,
            last,
            empty: 0,
            name,
            calls: 1,
        };
        let least = st.warmup_wall_ns.len().max(1);
        let ready = c
            .batch(1)
            .and_then(|_| c.estimate_empty())
            .and_then(|per_call| {
                c.calls = counted_batch_size(per_call, c.empty, st.batch);
                c.warm_up(c.calls, least)
            })
            .and_then(|()| c.estimate_empty())
            .and_then(|warm_per_call| {
                // Warm code may cost far less a call than the first calls did.
                c.calls = counted_batch_size(warm_per_call, c.empty, st.batch);
                let (digest, _) = c.worker.verify().map_err(|e| format!("verify: {e}"))?;
                self.check_digest(digest, payload, group)?;
                if st.digests.first().is_some_and(|timed| *timed != digest) {
                    return Err("its output differs from the timed worker's".into());
                }
                // What `verify` executed belongs to no batch.
                c.last = c.counted.read(c.worker.pid())?;
                Ok(())
            });
        match ready {
            Ok(()) => st.counting = Some(Box::new(c)),
            Err(why) => {
                let tail = c.counted.log_tail();
                c.worker.finish();
                stop(st, format!("{why}{tail}"));
            }
        }
    }
}

/// One counted batch of an in-process cell.
fn counted_batch(st: &mut CellState) {
    let Some(c) = st.counting.as_mut() else { return };
    match c.batch(c.calls) {
        Ok(n) => {
            st.samples.instructions.push(n);
            st.samples.instruction_iterations.push(c.calls);
            st.samples.instruction_overhead.push(c.empty);
            st.samples.counter.get_or_insert_with(|| c.name.clone());
        }
        Err(why) => {
            let tail = c.counted.log_tail();
            if let Some(c) = st.counting.take() {
                c.worker.finish();
            }
            stop(st, format!("{why}{tail}"));
        }
    }
}

/// Ends a cell's counting with why; its time and outcome stand.
fn stop(st: &mut CellState, why: String) {
    let done = st.samples.instructions.len();
    st.samples.instructions_error = Some(format!("counted run {}: {why}", done + 1));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counted_batch_aims_at_its_instructions_within_the_timed_batch() {
        // 33 k instructions a call: about 20 M instructions is 607 calls.
        assert_eq!(counted_batch_size(33_000, 150_000, 40_000), 607);
        // Never more calls than the timed batch, never fewer than one.
        assert_eq!(counted_batch_size(33_000, 150_000, 100), 100);
        assert_eq!(counted_batch_size(5_000_000_000, 0, 3), 1);
        // A costly empty batch asks for a hundred times its cost.
        assert_eq!(counted_batch_size(1_000, 1_000_000, u64::MAX), 100_000);
    }
}
