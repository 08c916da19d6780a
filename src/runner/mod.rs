//! The scheduler: turns the plan into runs and runs into cells.
//!
//! Within a group (one operation at one parameter set) the implementations
//! take turns, warm-up first and then measured rounds, in the plan's order
//! (`plan::order`: balanced by default, so each implementation also runs
//! after itself and after each other one equally often), so slow drift of
//! the machine spreads evenly and run i of every implementation is taken
//! side by side (the pairing later statistics use). Each run's place, its
//! predecessor and the gap since it are recorded (`results::RunOrder`).
//! Every run is checked, not just the first: exit status, and the output
//! checks the operation asks for. A failing cell stops being run and keeps
//! its outcome; the others go on. Each finished group is handed to the sink
//! before the next starts.
//!
//! The pieces, one concept each: `inputs` (payloads, cell folders, chained
//! inputs), `scope` (placeholder values), `lifecycle` (setup, teardown),
//! `cell` (starting and finishing a cell), `rounds` (warm-up, measured
//! rounds, stop rules, on an injected clock), `counting` (the runs counted
//! under the instruction counter, after the timed ones), `checks` (output checks),
//! `inprocess` (a cell served by a worker), `policy` (when to stop).

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Result;
use indexmap::IndexMap;

use crate::base::outcome::Outcome;
use crate::base::params::params_key;
use crate::exec::Executor;
use crate::exec::interrupt::interrupted;
use crate::payload::Digest;
use crate::plan::{Group, Plan, cell_id};
use crate::plan::{Visit, schedule, visit_group};
use crate::results::Cell;
use crate::suite::Suite;

mod agree;
mod cell;
mod checks;
mod counting;
mod failure;
#[cfg(test)]
pub(crate) mod fake;
mod hooks;
mod inprocess;
mod inputs;
mod lifecycle;
mod policy;
mod rounds;
mod scope;
mod state;
mod usage;

use cell::{GroupContext, Start, early_cell, finished_cell};
use inputs::PayloadFile;
#[cfg(test)]
pub(crate) use policy::precise;
pub(crate) use rounds::{Clock, SystemClock};
pub(crate) use scope::{implementation_scope, suite_scope};
pub(crate) use usage::ServiceMeter;

/// What the runner tells the outside world as it goes (progress bars, logs).
pub trait Events {
    fn start(&mut self, _total_runs: u64) {}
    fn group_start(&mut self, _label: &str) {}
    /// The runs planned for the group just started (warm-up included), for the ETA.
    fn group_planned(&mut self, _runs: u64) {}
    fn run_done(&mut self) {}
    /// Runs planned but not taken (a cell failed early, or was resumed), for the progress total.
    fn runs_dropped(&mut self, _count: u64) {}
    /// Runs beyond the plan (adaptive warm-up or sampling), for the progress total.
    fn runs_added(&mut self, _count: u64) {}
    fn note(&mut self, _text: &str) {}
    /// Measuring is over and the analysis of `runs` runs in `cells` cells begins.
    fn analysing(&mut self, _cells: usize, _runs: usize) {}
}

/// Events that go nowhere.
pub(crate) struct NoEvents;
impl Events for NoEvents {}

/// How the run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    Complete,
    Interrupted,
}

pub(crate) struct Runner<'a> {
    pub suite: &'a Suite,
    pub plan: &'a Plan,
    /// Cell outputs and logs: `<work>/<op>/<impl>/<params>/`.
    pub work: PathBuf,
    /// The `{tmp}` folder shared by all commands of the run.
    pub tmp: PathBuf,
    /// Where generated payloads are cached.
    pub cache: PathBuf,
    /// Cells already finished (from `--resume`): their groups are not run again.
    pub done: IndexMap<String, Cell>,
    /// The clock the `max_time` stop rule reads.
    pub clock: Box<dyn Clock>,
    /// Placeholder values known for the whole run (each service's
    /// `{<name>.port}`), added to every command's scope.
    pub globals: Vec<(String, String)>,
    /// Asked before each group: a reason the group cannot run (a service it
    /// needs has died), which then fails its cells without running them.
    pub health: Option<Box<dyn FnMut() -> Option<String> + 'a>>,
    /// Reads what the background services use around each run.
    pub meter: Option<Box<dyn ServiceMeter + 'a>>,
    /// Seeds the order of the groups in each pass (`plan::schedule`).
    pub seed: u64,
    /// Where outputs that `same_output` found differing are kept (in the
    /// results folder); `None`: not kept.
    pub kept: Option<PathBuf>,
    /// What counts instructions, for groups with counted runs (`counting`).
    pub counter: Option<crate::exec::Counter>,
    payloads: HashMap<String, PayloadFile>,
    /// The run before the next one: whose it was (in this visit of its
    /// group), when it ended, and the last run's own span (`rounds`).
    previous: rounds::Previous,
    /// SHA-256 of files that do not change during the run (payloads, expected outputs).
    digests: HashMap<PathBuf, Digest>,
    /// Outcome of every cell so far, by id, and whether its failure was
    /// versus's own, to skip consumers of failed producers.
    outcomes: HashMap<String, (Outcome, Option<crate::base::outcome::HarnessFault>)>,
    setup_failed: HashMap<usize, String>,
    /// The machine's speed, read between measured rounds (`exec::speed`),
    /// and the time the readings took.
    pub speed: Vec<u64>,
    speed_spent: std::time::Duration,
}

impl<'a> Runner<'a> {
    pub(crate) fn new(suite: &'a Suite, plan: &'a Plan, work: PathBuf, tmp: PathBuf, cache: PathBuf) -> Self {
        Runner {
            suite,
            plan,
            work,
            tmp,
            cache,
            done: IndexMap::new(),
            clock: Box::new(SystemClock::default()),
            globals: vec![],
            health: None,
            meter: None,
            seed: 0,
            kept: None,
            counter: None,
            payloads: HashMap::new(),
            previous: rounds::Previous::default(),
            digests: HashMap::new(),
            outcomes: HashMap::new(),
            setup_failed: HashMap::new(),
            speed: Vec::new(),
            speed_spent: std::time::Duration::ZERO,
        }
    }

    /// Runs every group of the plan, handing each group's cells to `sink` as
    /// it finishes (moved, not copied: a cell may hold 100,000 samples).
    pub(crate) fn run(
        &mut self,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
        sink: &mut dyn FnMut(Vec<Cell>) -> Result<()>,
    ) -> Result<End> {
        events.start(self.plan.total_runs());
        for c in self.done.values() {
            self.outcomes.insert(c.id.clone(), (c.outcome, c.harness_fault));
        }
        for visit in schedule(self.suite, self.plan, self.seed) {
            if interrupted() {
                return Ok(End::Interrupted);
            }
            let group = visit_group(&self.plan.groups[visit.group], visit.segment, visit.segments);
            let visit = self.plan.segmented().then_some(visit);
            let planned = u64::from(group.runs + group.warmup) * group.implementations.len() as u64;
            if self.already_done(&group, visit) {
                events.runs_dropped(planned);
                continue;
            }
            let op = &self.suite.operations[group.operation];
            let pass = visit.map_or_else(String::new, |v| {
                format!(" (pass {} of {})", v.pass + 1, self.plan.passes)
            });
            events.group_start(&format!("{} {}{pass}", op.name, params_key(&group.params)));
            events.group_planned(planned);
            if let Some(m) = self.meter.as_mut() {
                m.refresh();
            }
            let cells = match self.health.as_mut().and_then(|check| check()) {
                Some(reason) => self.unrunnable(&group, visit, reason, events),
                None => self.run_group(&group, visit, exec, events)?,
            };
            if interrupted() {
                return Ok(End::Interrupted);
            }
            for c in &cells {
                self.outcomes.insert(c.id.clone(), (c.outcome, c.harness_fault));
            }
            sink(cells)?;
        }
        Ok(End::Complete)
    }

    /// Whether every cell of the group's visit was finished by an earlier run
    /// (`--resume`): recorded with this visit's segment, or ended earlier.
    fn already_done(&self, group: &Group, visit: Option<Visit>) -> bool {
        let op = &self.suite.operations[group.operation];
        let mut ids = group
            .implementations
            .iter()
            .chain(group.skipped.iter().map(|(i, _)| i))
            .map(|&i| cell_id(&op.name, &self.suite.implementations[i].name, &group.params))
            .peekable();
        ids.peek().is_some()
            && ids.all(|id| match (self.done.get(&id), visit) {
                (None, _) => false,
                (Some(_), None) => true,
                (Some(c), Some(v)) => c.has_segment((v.pass, v.fork)) || c.outcome != Outcome::Ok,
            })
    }

    /// The group's implementations still to measure in this visit: a cell
    /// that ended in an earlier visit (failed, timed out) is not run again.
    fn still_measured(&self, group: &Group, visit: Option<Visit>) -> Vec<usize> {
        let op = &self.suite.operations[group.operation];
        group
            .implementations
            .iter()
            .copied()
            .filter(|&i| {
                visit.is_none_or(|v| v.segment == 0)
                    || self
                        .outcomes
                        .get(&cell_id(&op.name, &self.suite.implementations[i].name, &group.params))
                        .is_none_or(|(o, _)| *o == Outcome::Ok)
            })
            .collect()
    }

    /// Measures one group: starts its cells, takes the rounds, checks the
    /// outputs, and returns its cells in the suite's implementation order
    /// (none when interrupted).
    fn run_group(
        &mut self,
        group: &Group,
        visit: Option<Visit>,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> Result<Vec<Cell>> {
        let payload = self.payload(&group.values, events, exec)?;
        // Generating a payload and digesting the last group's outputs raised
        // versus's own peak memory, which every run's max_rss cannot go under.
        crate::exec::reset_own_peak();
        let ctx = GroupContext {
            group,
            payload: payload.as_ref(),
            started_at: crate::results::now_rfc3339_millis(),
            visit,
        };
        let runs_per_cell = u64::from(group.runs + group.warmup);
        let first_visit = visit.is_none_or(|v| v.segment == 0);
        let mut finished: Vec<Cell> = group
            .skipped
            .iter()
            .filter(|_| first_visit)
            .map(|(imp, reason)| early_cell(self, &ctx, *imp, Outcome::Skipped, reason.clone()))
            .collect();
        let measured = self.still_measured(group, visit);
        events.runs_dropped(runs_per_cell * (group.implementations.len() - measured.len()) as u64);
        let mut states = Vec::new();
        for imp in measured {
            match self.start_cell(&ctx, imp, exec, events)? {
                Start::Ended(cell) => {
                    finished.push(*cell);
                    events.runs_dropped(runs_per_cell);
                }
                Start::Measure(st) => {
                    if st.outcome.is_some() {
                        events.runs_dropped(runs_per_cell);
                    }
                    states.push(*st);
                }
            }
        }
        // A visit of a group starts a new sequence: what ran before was another group's.
        self.previous.implementation = None;
        if self.sample_rounds(&mut states, group, ctx.payload, exec, events)
            || self.count_rounds(&mut states, group, ctx.payload, exec, events)
        {
            return Ok(vec![]);
        }
        for st in &mut states {
            if let Err(failure) = hooks::run_all(exec, "cell_teardown", &st.hooks.teardown)
                && st.outcome.is_none()
            {
                st.fail_for(Outcome::Failed, failure);
            }
        }
        self.close_workers(&mut states, &ctx);
        self.compare_outputs(&mut states, group);
        finished.extend(states.into_iter().map(|st| finished_cell(self, &ctx, st)));
        // Keep report order: the suite's implementation order.
        let suite = self.suite;
        finished.sort_by_key(|c| suite.implementations.iter().position(|i| i.name == c.implementation));
        Ok(finished)
    }

    /// The cells of a group that cannot run, failed with `reason`.
    fn unrunnable(
        &mut self,
        group: &Group,
        visit: Option<Visit>,
        reason: String,
        events: &mut dyn Events,
    ) -> Vec<Cell> {
        let ctx = GroupContext {
            group,
            payload: None,
            started_at: crate::results::now_rfc3339_millis(),
            visit,
        };
        events.runs_dropped(u64::from(group.runs + group.warmup) * group.implementations.len() as u64);
        let mut cells: Vec<Cell> = group
            .implementations
            .iter()
            .map(|imp| early_cell(self, &ctx, *imp, Outcome::Failed, reason.clone()))
            .chain(
                group
                    .skipped
                    .iter()
                    .map(|(imp, why)| early_cell(self, &ctx, *imp, Outcome::Skipped, why.clone())),
            )
            .collect();
        let suite = self.suite;
        cells.sort_by_key(|c| suite.implementations.iter().position(|i| i.name == c.implementation));
        cells
    }

    /// Workers are asked for their output once more after measuring (state
    /// the operation corrupted would show here), then stopped.
    fn close_workers(&mut self, states: &mut [state::CellState], ctx: &GroupContext) {
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            self.verify_worker(st, ctx.payload, ctx.group);
        }
        for st in states.iter_mut() {
            let placeholder = state::Mode::Process(crate::exec::RunRequest::default());
            if let state::Mode::Worker(w) = std::mem::replace(&mut st.mode, placeholder) {
                st.samples.worker_max_rss_bytes = w.finish();
            }
        }
    }
}

#[cfg(test)]
mod tests;
