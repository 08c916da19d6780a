//! A cell while it is being measured (`CellState`) and the finished `Cell`
//! it becomes. Starting a cell means resolving its input, rendering its
//! command (or starting its in-process worker and checking its output once);
//! finishing means folding its samples, outcome and stop rule into a `Cell`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::failure::Failure;
use super::hooks::{self, Hooks};
use super::inprocess::{self, InProcess};
use super::inputs::PayloadFile;
use super::scope::{CellFiles, cell_scope};
use super::state::{CellState, Mode, WorkerLaunch};
use super::{Events, Runner};
use crate::base::outcome::{HarnessFault, Outcome};
use crate::exec::{Executor, RunRequest};
use crate::plan::{Group, cell_id};
use crate::results::{Cell, Samples, Segment, StopRule, WorkerInfo};
use crate::suite::{Input, OutputMode};

impl CellState {
    fn new(imp: usize, mode: Mode, out: Option<PathBuf>) -> CellState {
        CellState {
            imp,
            outcome: None,
            message: None,
            samples: Samples::default(),
            warmup_wall_ns: vec![],
            digests: vec![],
            mode,
            out,
            worker: None,
            stop_rule: StopRule::Fixed,
            done: false,
            batch: 1,
            hooks: Hooks::default(),
            target_runs: 1,
            services: vec![],
            fault: None,
            launch: None,
            counting: None,
        }
    }

    /// Warm-up samples per call (in-process batches divided by the batch size).
    pub(super) fn warmup_per_call(&self) -> Vec<f64> {
        let sizes = &self.samples.warmup_iterations;
        if sizes.len() == self.warmup_wall_ns.len() {
            return crate::results::per_call_batches(&self.warmup_wall_ns, sizes);
        }
        crate::results::per_call(&self.warmup_wall_ns, self.batch)
    }

    /// Ends the cell with `outcome`. Its output file goes: nothing reads
    /// a failed cell's output, and a program that filled the disk with it
    /// must not keep the journal from recording the outcome.
    pub(super) fn fail(&mut self, outcome: Outcome, message: String) {
        self.fail_for(outcome, Failure { message, fault: None });
    }

    /// Ends the cell with `outcome`, keeping whose fault it was.
    pub(super) fn fail_for(&mut self, outcome: Outcome, failure: Failure) {
        self.outcome = Some(outcome);
        self.message = Some(crate::base::text::capped(
            &failure.message,
            crate::base::text::MESSAGE_MAX,
        ));
        self.fault = failure.fault;
        if let Some(out) = &self.out {
            // Emptied before it is removed: the executor may hold it open
            // for the next run, which would keep its blocks allocated.
            let _ = fs::OpenOptions::new().write(true).open(out).and_then(|f| f.set_len(0));
            let _ = fs::remove_file(out);
        }
    }
}

/// The measured runs a cell will take, when the plan fixes them: the
/// samples are allocated once, at their final size (100,000 runs of a short
/// command would otherwise leave up to half their memory unused).
fn planned_runs(group: &Group) -> usize {
    match group.sampling {
        crate::plan::Sampling::Fixed => group.runs as usize,
        _ => 0,
    }
}

/// What a group's cells share.
pub(super) struct GroupContext<'g> {
    pub group: &'g Group,
    pub payload: Option<&'g PayloadFile>,
    pub started_at: String,
    /// Which visit of the group this is, when the plan visits groups more than once.
    pub visit: Option<crate::plan::Visit>,
}

impl GroupContext<'_> {
    /// The segment a cell of this visit records, with its runs.
    fn segments(&self, runs: usize, warmup_runs: usize, counted: usize) -> Vec<Segment> {
        self.visit
            .map(|v| Segment {
                pass: v.pass,
                fork: v.fork,
                runs: runs as u32,
                warmup_runs: warmup_runs as u32,
                started_at: self.started_at.clone(),
                counted: counted as u32,
            })
            .into_iter()
            .collect()
    }
}

/// A cell that ended before any sample: skipped, or failed at setup.
pub(super) fn early_cell(runner: &Runner, ctx: &GroupContext, imp: usize, outcome: Outcome, message: String) -> Cell {
    let suite = runner.suite;
    let op = &suite.operations[ctx.group.operation];
    Cell {
        id: cell_id(&op.name, &suite.implementations[imp].name, &ctx.group.params),
        implementation: suite.implementations[imp].name.clone(),
        operation: op.name.clone(),
        params: ctx.group.params.clone(),
        outcome,
        message: Some(crate::base::text::capped(&message, crate::base::text::MESSAGE_MAX)),
        payload_bytes: ctx.payload.filter(|_| op.counts_payload).map(|p| p.bytes.0),
        warmup_runs: ctx.group.warmup,
        runs_requested: ctx.group.runs,
        warmup_wall_ns: vec![],
        samples: Samples::default(),
        worker: None,
        machine: None,
        services: vec![],
        segments: ctx.segments(0, 0, 0),
        work_params: Some(crate::plan::params_used(suite, ctx.group.operation, imp)),
        started_at: Some(ctx.started_at.clone()),
        stop_rule: StopRule::Failed,
        harness_fault: None,
        stats: None,
    }
}

/// A cell that failed before any sample, with whose fault it was.
fn failed_early(runner: &Runner, ctx: &GroupContext, imp: usize, outcome: Outcome, failure: Failure) -> Start {
    let cell = Cell {
        harness_fault: failure.fault,
        ..early_cell(runner, ctx, imp, outcome, failure.message)
    };
    Start::Ended(Box::new(cell))
}

/// The finished cell from its state.
pub(super) fn finished_cell(runner: &Runner, ctx: &GroupContext, st: CellState) -> Cell {
    let outcome = st.outcome.unwrap_or(Outcome::Ok);
    Cell {
        segments: ctx.segments(st.samples.len(), st.warmup_wall_ns.len(), st.samples.instructions.len()),
        outcome,
        warmup_runs: st.warmup_wall_ns.len() as u32,
        message: st.message,
        warmup_wall_ns: st.warmup_wall_ns,
        samples: st.samples,
        worker: st.worker,
        services: st.services,
        harness_fault: st.fault.filter(|_| outcome != Outcome::Ok),
        stop_rule: if outcome == Outcome::Ok {
            st.stop_rule
        } else {
            StopRule::Failed
        },
        ..early_cell(runner, ctx, st.imp, outcome, String::new())
    }
}

/// A cell either ready to measure or already ended.
pub(super) enum Start {
    Measure(Box<CellState>),
    Ended(Box<Cell>),
}

impl Runner<'_> {
    /// Gets implementation `imp`'s cell of the group ready: its input, its
    /// folder, and its command or worker.
    pub(super) fn start_cell(
        &mut self,
        ctx: &GroupContext,
        imp: usize,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> Result<Start> {
        let group = ctx.group;
        let op = &self.suite.operations[group.operation];
        if let Some(msg) = self.setup_failed.get(&imp) {
            return Ok(Start::Ended(Box::new(early_cell(
                self,
                ctx,
                imp,
                Outcome::Failed,
                msg.clone(),
            ))));
        }
        // The input: the payload, or what an earlier operation of this implementation produced.
        let input = match op.input {
            Input::Payload => ctx.payload.map(|p| p.path.clone()),
            Input::Operation(j) => match self.ensure_artifact(j, imp, group, exec, events) {
                Ok(p) => Some(p),
                // Skipped, and versus's own fault when its producer's failure was.
                Err(why) => return Ok(failed_early(self, ctx, imp, Outcome::Skipped, why)),
            },
        };
        let dir = self.cell_dir(group.operation, imp, &group.params);
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let out = op.stdout_file.clone().unwrap_or_else(|| dir.join("out"));
        let earlier = (0..group.operation)
            .map(|oi| {
                let name = self.suite.operations[oi].name.clone();
                (name, self.cell_dir(oi, imp, &group.params).join("out"))
            })
            .collect();
        let files = CellFiles {
            payload: ctx.payload.map(|p| p.path.as_path()),
            input: input.as_deref(),
            out: &out,
            tmp: &self.tmp,
            earlier,
        };
        let implementation = &self.suite.implementations[imp];
        let scope =
            cell_scope(group, implementation, &op.name, &files).with_all(self.globals.iter().map(|(k, v)| (k, v)));
        let cwd = implementation.cwd.clone().unwrap_or_else(|| self.suite.dir.clone());
        let Some(command) = &implementation.commands[group.operation] else {
            let worker_cmd = implementation
                .worker
                .as_ref()
                .expect("validated: no command means a worker");
            let argv = scope.command(worker_cmd)?;
            let st = self.start_worker(ctx, imp, argv, &cwd, &dir, input.as_deref(), events);
            return Ok(Start::Measure(Box::new(st)));
        };
        let hooks = Hooks::render(implementation, &scope, &cwd, &dir, group.timeout).map_err(anyhow::Error::msg)?;
        let inherit = op.output == OutputMode::Inherit;
        let req = RunRequest {
            argv: scope.command(command)?,
            cwd: Some(cwd),
            env: implementation.env.clone(),
            stdin: if op.stdin { input.clone() } else { None },
            stdout: (op.output == OutputMode::Stdout).then(|| out.clone()),
            stderr: (!inherit).then(|| dir.join("stderr")),
            timeout: group.timeout,
            memory_limit: implementation.memory_limit,
            inherit_output: inherit,
            exact_memory: false,
            fixed_layout: false,
        };
        if let Err(failure) = hooks::run_all(exec, "cell_setup", &hooks.setup) {
            return Ok(failed_early(self, ctx, imp, Outcome::Failed, failure));
        }
        let out = matches!(op.output, OutputMode::Stdout | OutputMode::File).then_some(out);
        let mut st = CellState::new(imp, Mode::Process(req), out);
        st.hooks = hooks;
        st.samples.reserve_runs(planned_runs(group), false);
        Ok(Start::Measure(Box::new(st)))
    }

    /// Starts an in-process worker for a cell and checks its output once.
    #[allow(clippy::too_many_arguments)]
    fn start_worker(
        &mut self,
        ctx: &GroupContext,
        imp: usize,
        argv: Vec<String>,
        cwd: &Path,
        dir: &Path,
        input: Option<&Path>,
        events: &mut dyn Events,
    ) -> CellState {
        let group = ctx.group;
        let op = &self.suite.operations[group.operation];
        let implementation = &self.suite.implementations[imp];
        let setup = serde_json::json!({
            "operation": op.name,
            "params": group.values,
            "payload": ctx.payload.map(|p| p.path.display().to_string()),
            "input": input.map(|p| p.display().to_string()),
        });
        events.note(&format!("starting the {} worker", implementation.name));
        let started = InProcess::start(
            &argv,
            cwd,
            &implementation.env,
            &dir.join("worker.log"),
            &op.name,
            setup.clone(),
            group.timeout,
            self.suite.settings.min_sample_time,
        );
        let mut st = CellState::new(imp, Mode::Process(RunRequest::default()), None);
        st.launch = Some(WorkerLaunch {
            argv: argv.clone(),
            env: implementation.env.clone(),
            cwd: cwd.to_path_buf(),
            operation: op.name.clone(),
            setup,
        });
        match started {
            Ok(w) => {
                st.worker = Some(WorkerInfo {
                    language: w.hello.language.clone(),
                    runtime: w.hello.runtime.clone(),
                    library: w.hello.library.clone(),
                });
                st.batch = w.batch;
                st.mode = Mode::Worker(Box::new(w));
                st.samples.reserve_runs(planned_runs(group), true);
                self.verify_worker(&mut st, ctx.payload, group);
            }
            Err(e) => {
                let fault = match &e {
                    crate::worker::WorkerError::Spawn(io) => HarnessFault::of_io(io),
                    _ => None,
                };
                let message = format!("worker: {e}");
                st.fail_for(inprocess::outcome_of(&e), Failure { message, fault });
            }
        }
        st
    }
}
