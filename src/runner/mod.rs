//! The scheduler: turns the plan into runs and runs into cells.
//!
//! Within a group (one operation at one parameter set) the implementations
//! take turns, warm-up first and then measured rounds, A B C, B C A, C A B …,
//! so slow drift of the machine spreads evenly and run i of every
//! implementation is taken side by side (the pairing later statistics use).
//! Every run is checked, not just the first: exit status, and the output
//! checks the operation asks for. A failing cell stops being run and keeps
//! its outcome; the others go on. Each finished group is handed to the sink
//! before the next starts.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use indexmap::IndexMap;

use crate::exec::process::{interrupted, tail};
use crate::exec::{Executor, Exit, RunRecord, RunRequest};
use crate::outcome::Outcome;
use crate::payload::{self, Digest};
use crate::placeholder::CommandTemplate;
use crate::plan::{Group, Params, Plan, Sampling, cell_id, params_key};
use crate::results::{Cell, Samples, StopRule, WorkerInfo};
use crate::suite::{Implementation, Input, OutputMode, Payload, Suite};
use crate::units::{Bytes, parse_size};

/// What the runner tells the outside world as it goes (progress bars, logs).
pub trait Events {
    fn start(&mut self, _total_runs: u64) {}
    fn group_start(&mut self, _label: &str) {}
    fn run_done(&mut self) {}
    /// Runs planned but not taken (a cell failed early, or was resumed), for the progress total.
    fn runs_dropped(&mut self, _count: u64) {}
    /// Runs beyond the plan (adaptive warm-up or sampling), for the progress total.
    fn runs_added(&mut self, _count: u64) {}
    fn note(&mut self, _text: &str) {}
}

/// Events that go nowhere.
pub struct NoEvents;
impl Events for NoEvents {}

/// How the run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    Complete,
    Interrupted,
}

/// A resolved payload: where it is and how big.
#[derive(Debug, Clone)]
struct PayloadFile {
    path: PathBuf,
    bytes: Bytes,
}

mod inprocess;
pub mod policy;
use inprocess::InProcess;

pub struct Runner<'a> {
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
    payloads: HashMap<String, PayloadFile>,
    /// SHA-256 of files that do not change during the run (payloads, expected outputs).
    digests: HashMap<PathBuf, Digest>,
    /// Outcome of every cell so far, by id, to skip consumers of failed producers.
    outcomes: HashMap<String, Outcome>,
    setup_failed: HashMap<usize, String>,
}

/// How a cell's samples are taken.
enum Mode {
    Process(RunRequest),
    Worker(Box<InProcess>),
}

struct CellState {
    imp: usize,
    outcome: Option<Outcome>,
    message: Option<String>,
    samples: Samples,
    warmup_wall_ns: Vec<u64>,
    /// SHA-256 of each checked output, for `same_output`.
    digests: Vec<Digest>,
    mode: Mode,
    out: Option<PathBuf>,
    worker: Option<WorkerInfo>,
    stop_rule: StopRule,
    /// Measuring finished for this cell (adaptive sampling).
    done: bool,
    /// Calls per sample: 1 for processes, the calibrated batch in-process.
    batch: u64,
}

impl CellState {
    fn warmup_per_call(&self) -> Vec<f64> {
        self.warmup_wall_ns
            .iter()
            .map(|w| *w as f64 / self.batch.max(1) as f64)
            .collect()
    }

    fn fail(&mut self, outcome: Outcome, message: String) {
        self.outcome = Some(outcome);
        self.message = Some(message);
    }
}

fn sanitize(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | ',') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() { "_".into() } else { clean }
}

/// Describes a run that did not end as expected.
fn describe(exit: &Exit, expected: i32) -> (Outcome, String) {
    match exit {
        Exit::Code(c) => (Outcome::Failed, format!("exited with status {c} (expected {expected})")),
        Exit::Signal(s) => {
            let hint = if *s == libc::SIGKILL {
                " (possibly the kernel's out-of-memory killer)"
            } else {
                ""
            };
            (Outcome::Failed, format!("killed by signal {s}{hint}"))
        }
        Exit::Timeout => (Outcome::Timeout, "exceeded the per-run timeout and was killed".into()),
        Exit::OutOfMemory => (Outcome::OutOfMemory, "killed for exceeding its memory limit".into()),
        Exit::SpawnError(m) => (Outcome::Failed, format!("could not start: {m}")),
    }
}

impl<'a> Runner<'a> {
    pub fn new(suite: &'a Suite, plan: &'a Plan, work: PathBuf, tmp: PathBuf, cache: PathBuf) -> Self {
        Runner {
            suite,
            plan,
            work,
            tmp,
            cache,
            done: IndexMap::new(),
            payloads: HashMap::new(),
            digests: HashMap::new(),
            outcomes: HashMap::new(),
            setup_failed: HashMap::new(),
        }
    }

    /// Checks before anything runs that every payload of the plan can be
    /// resolved (sizes parse, files exist), so bad input fails fast.
    pub fn check_payloads(&self) -> Result<()> {
        let Some(p) = &self.suite.payload else { return Ok(()) };
        for g in &self.plan.groups {
            let lookup = |n: &str| g.params.get(n).map(|v| v.to_string());
            match p {
                Payload::Random { size, .. } => {
                    let text = render_owned(size.render_with(lookup))?;
                    parse_size(&text).map_err(|e| anyhow!("{}: payload.size: {e}", self.suite.path.display()))?;
                }
                Payload::File(t) => {
                    let path = self.suite.dir.join(render_owned(t.render_with(lookup))?);
                    if !path.is_file() {
                        bail!(
                            "{}: payload.file: {} does not exist",
                            self.suite.path.display(),
                            path.display()
                        );
                    }
                }
                Payload::Command(_) => {}
            }
        }
        Ok(())
    }

    fn payload(
        &mut self,
        params: &Params,
        events: &mut dyn Events,
        exec: &mut dyn Executor,
    ) -> Result<Option<PayloadFile>> {
        let Some(spec) = &self.suite.payload else {
            return Ok(None);
        };
        let lookup = |n: &str| params.get(n).map(|v| v.to_string());
        let key = match spec {
            Payload::Random { size, seed } => format!("random:{seed}:{}", render_owned(size.render_with(lookup))?),
            Payload::File(t) => format!("file:{}", render_owned(t.render_with(lookup))?),
            // {out} and {tmp} are the same for every expansion; the parameters tell them apart.
            Payload::Command(c) => format!(
                "command:{}",
                c.render_with(|n| match n {
                    "out" | "tmp" => Some(format!("<{n}>")),
                    _ => lookup(n),
                })
                .map_err(|n| anyhow!("unknown placeholder {{{n}}}"))?
                .join("\u{1f}")
            ),
        };
        if let Some(p) = self.payloads.get(&key) {
            return Ok(Some(p.clone()));
        }
        let file = match spec {
            Payload::Random { size, seed } => {
                let bytes = parse_size(&render_owned(size.render_with(lookup))?)?;
                events.note(&format!("generating {} payload", crate::units::format_bytes(bytes.0)));
                let path = payload::cached(&self.cache, *seed, bytes)
                    .with_context(|| format!("cannot write the payload into {}", self.cache.display()))?;
                PayloadFile { path, bytes }
            }
            Payload::File(t) => {
                let path = self.suite.dir.join(render_owned(t.render_with(lookup))?);
                let bytes = Bytes(
                    fs::metadata(&path)
                        .with_context(|| format!("payload {}", path.display()))?
                        .len(),
                );
                PayloadFile { path, bytes }
            }
            Payload::Command(c) => {
                let dir = self.work.join("payloads");
                fs::create_dir_all(&dir)?;
                let path = dir.join(sanitize(&params_key(params)));
                let tmp = self.tmp.display().to_string();
                let out = path.display().to_string();
                let argv = c
                    .render_with(|n| match n {
                        "out" => Some(out.clone()),
                        "tmp" => Some(tmp.clone()),
                        _ => params.get(n).map(|v| v.to_string()),
                    })
                    .map_err(|n| anyhow!("payload.command: unknown placeholder {{{n}}}"))?;
                events.note(&format!("generating payload with `{}`", argv.join(" ")));
                let stderr = dir.join("generator.stderr");
                let r = exec.run(&RunRequest {
                    argv: argv.clone(),
                    cwd: Some(self.suite.dir.clone()),
                    stderr: Some(stderr.clone()),
                    timeout: self.suite.settings.timeout,
                    ..Default::default()
                });
                if r.exit != Exit::Code(0) || !path.is_file() {
                    bail!(
                        "{}: payload.command `{}` did not produce {} ({:?}): {}",
                        self.suite.path.display(),
                        argv.join(" "),
                        path.display(),
                        r.exit,
                        tail(&stderr, 2000)
                    );
                }
                let bytes = Bytes(fs::metadata(&path)?.len());
                PayloadFile { path, bytes }
            }
        };
        self.payloads.insert(key, file.clone());
        Ok(Some(file))
    }

    fn cell_dir(&self, op: usize, imp: usize, params: &Params) -> PathBuf {
        self.work
            .join(sanitize(&self.suite.operations[op].name))
            .join(sanitize(&self.suite.implementations[imp].name))
            .join(sanitize(&params_key(params)))
    }

    /// Runs suite and implementation setup commands. A failed suite setup is an
    /// error; a failed implementation setup fails that implementation's cells.
    pub fn setup(&mut self, exec: &mut dyn Executor, events: &mut dyn Events) -> Result<()> {
        fs::create_dir_all(&self.tmp)?;
        fs::create_dir_all(&self.work)?;
        for cmd in &self.suite.setup {
            if let Err(msg) = self.run_plain(exec, cmd, None) {
                bail!("{}: setup command failed: {msg}", self.suite.path.display());
            }
        }
        let used: HashSet<usize> = self
            .plan
            .groups
            .iter()
            .flat_map(|g| g.implementations.iter().copied())
            .collect();
        for (i, imp) in self.suite.implementations.iter().enumerate() {
            if !used.contains(&i) {
                continue;
            }
            for cmd in &imp.setup {
                events.note(&format!("setting up {}", imp.name));
                if let Err(msg) = self.run_plain(exec, cmd, Some(imp)) {
                    self.setup_failed.insert(i, format!("setup failed: {msg}"));
                    break;
                }
            }
        }
        Ok(())
    }

    /// Runs teardown commands; returns failures as messages (they do not change results).
    pub fn teardown(&mut self, exec: &mut dyn Executor) -> Vec<String> {
        let mut problems = Vec::new();
        for imp in &self.suite.implementations {
            for cmd in &imp.teardown {
                if let Err(m) = self.run_plain(exec, cmd, Some(imp)) {
                    problems.push(format!("teardown of {}: {m}", imp.name));
                }
            }
        }
        for cmd in &self.suite.teardown {
            if let Err(m) = self.run_plain(exec, cmd, None) {
                problems.push(format!("suite teardown: {m}"));
            }
        }
        problems
    }

    fn run_plain(
        &self,
        exec: &mut dyn Executor,
        cmd: &CommandTemplate,
        imp: Option<&Implementation>,
    ) -> Result<(), String> {
        let tmp = self.tmp.display().to_string();
        let argv = cmd
            .render_with(|n| match n {
                "tmp" => Some(tmp.clone()),
                "impl" => imp.map(|i| i.name.clone()),
                _ => imp.and_then(|i| i.vars.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone())),
            })
            .map_err(|n| format!("unknown placeholder {{{n}}}"))?;
        let stderr = self.tmp.join(".setup.stderr");
        let r = exec.run(&RunRequest {
            argv: argv.clone(),
            cwd: Some(
                imp.and_then(|i| i.cwd.clone())
                    .unwrap_or_else(|| self.suite.dir.clone()),
            ),
            env: imp.map(|i| i.env.clone()).unwrap_or_default(),
            stderr: Some(stderr.clone()),
            timeout: self.suite.settings.timeout,
            ..Default::default()
        });
        match r.exit {
            Exit::Code(0) => Ok(()),
            other => Err(format!(
                "`{}`: {}; {}",
                argv.join(" "),
                describe(&other, 0).1,
                tail(&stderr, 1000)
            )),
        }
    }

    /// Runs every group of the plan, handing each group's cells to `sink` as it finishes.
    pub fn run(
        &mut self,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
        sink: &mut dyn FnMut(&[Cell]) -> Result<()>,
    ) -> Result<End> {
        events.start(self.plan.total_runs());
        for c in self.done.values() {
            self.outcomes.insert(c.id.clone(), c.outcome);
        }
        for gi in 0..self.plan.groups.len() {
            if interrupted() {
                return Ok(End::Interrupted);
            }
            let group = self.plan.groups[gi].clone();
            let op = &self.suite.operations[group.operation];
            let ids: Vec<String> = group
                .implementations
                .iter()
                .chain(group.skipped.iter().map(|(i, _)| i))
                .map(|&i| cell_id(&op.name, &self.suite.implementations[i].name, &group.params))
                .collect();
            if !ids.is_empty() && ids.iter().all(|id| self.done.contains_key(id)) {
                events.runs_dropped(u64::from(group.runs + group.warmup) * group.implementations.len() as u64);
                continue;
            }
            events.group_start(&format!("{} {}", op.name, params_key(&group.params)));
            let cells = self.run_group(&group, exec, events)?;
            if interrupted() {
                return Ok(End::Interrupted);
            }
            for c in &cells {
                self.outcomes.insert(c.id.clone(), c.outcome);
            }
            sink(&cells)?;
        }
        Ok(End::Complete)
    }

    fn run_group(&mut self, group: &Group, exec: &mut dyn Executor, events: &mut dyn Events) -> Result<Vec<Cell>> {
        let suite = self.suite;
        let op = &suite.operations[group.operation];
        let payload = self.payload(&group.params, events, exec)?;
        // Generating a payload and digesting the last group's outputs raised
        // versus's own peak memory, which every run's max_rss cannot go under.
        crate::exec::process::reset_own_peak_rss();
        let mut states: Vec<CellState> = Vec::new();
        let mut finished: Vec<Cell> = Vec::new();
        let runs_per_cell = u64::from(group.runs + group.warmup);
        let group_started = crate::results::now_rfc3339_millis();
        let payload_bytes = payload.as_ref().filter(|_| op.counts_payload).map(|p| p.bytes.0);

        let blank = |imp: usize, outcome: Outcome, message: String| Cell {
            id: cell_id(&op.name, &suite.implementations[imp].name, &group.params),
            implementation: suite.implementations[imp].name.clone(),
            operation: op.name.clone(),
            params: group.params.clone(),
            outcome,
            message: Some(message),
            payload_bytes,
            warmup_runs: group.warmup,
            runs_requested: group.runs,
            warmup_wall_ns: vec![],
            samples: Samples::default(),
            worker: None,
            started_at: Some(group_started.clone()),
            stop_rule: StopRule::Failed,
            stats: None,
        };
        for (imp, reason) in &group.skipped {
            finished.push(blank(*imp, Outcome::Skipped, reason.clone()));
        }

        for &imp in &group.implementations {
            let implementation = &suite.implementations[imp];
            if let Some(msg) = self.setup_failed.get(&imp) {
                finished.push(blank(imp, Outcome::Failed, msg.clone()));
                events.runs_dropped(runs_per_cell);
                continue;
            }
            // The input: the payload, or what an earlier operation of this implementation produced.
            let input = match op.input {
                Input::Payload => payload.as_ref().map(|p| p.path.clone()),
                Input::Operation(j) => match self.ensure_artifact(j, imp, group, exec, events) {
                    Ok(p) => Some(p),
                    Err(why) => {
                        finished.push(blank(imp, Outcome::Skipped, why));
                        events.runs_dropped(runs_per_cell);
                        continue;
                    }
                },
            };
            let dir = self.cell_dir(group.operation, imp, &group.params);
            fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let out = dir.join("out");
            let mut vars: HashMap<String, String> =
                group.params.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            vars.extend(group.vars.iter().map(|(k, v)| (k.clone(), v.clone())));
            vars.extend(implementation.vars.iter().cloned());
            vars.insert(
                "payload".into(),
                payload
                    .as_ref()
                    .map(|p| p.path.display().to_string())
                    .unwrap_or_default(),
            );
            vars.insert(
                "in".into(),
                input.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
            );
            vars.insert("out".into(), out.display().to_string());
            vars.insert("tmp".into(), self.tmp.display().to_string());
            vars.insert("impl".into(), implementation.name.clone());
            vars.insert("op".into(), op.name.clone());
            for earlier in &suite.operations[..group.operation] {
                let oi = suite
                    .operations
                    .iter()
                    .position(|o| o.name == earlier.name)
                    .expect("known op");
                let p = self.cell_dir(oi, imp, &group.params).join("out");
                vars.insert(format!("{}.out", earlier.name), p.display().to_string());
            }
            let cwd = implementation.cwd.clone().unwrap_or_else(|| suite.dir.clone());
            let render = |c: &CommandTemplate| {
                c.render_with(|n| vars.get(n).cloned())
                    .map_err(|n| anyhow!("unknown placeholder {{{n}}}"))
            };
            let Some(command) = &implementation.commands[group.operation] else {
                let worker_cmd = implementation
                    .worker
                    .as_ref()
                    .expect("validated: no command means a worker");
                let setup = serde_json::json!({
                    "operation": op.name,
                    "params": group.params,
                    "payload": payload.as_ref().map(|p| p.path.display().to_string()),
                    "input": input.as_ref().map(|p| p.display().to_string()),
                });
                events.note(&format!("starting the {} worker", implementation.name));
                let started = InProcess::start(
                    &render(worker_cmd)?,
                    &cwd,
                    &implementation.env,
                    &dir.join("worker.log"),
                    &op.name,
                    setup,
                    group.timeout,
                    suite.settings.min_sample_time,
                );
                let mut st = CellState {
                    imp,
                    outcome: None,
                    message: None,
                    samples: Samples::default(),
                    warmup_wall_ns: vec![],
                    digests: vec![],
                    mode: Mode::Process(RunRequest::default()),
                    out: None,
                    worker: None,
                    stop_rule: StopRule::Fixed,
                    done: false,
                    batch: 1,
                };
                match started {
                    Ok(w) => {
                        st.worker = Some(WorkerInfo {
                            language: w.hello.language.clone(),
                            runtime: w.hello.runtime.clone(),
                            library: w.hello.library.clone(),
                        });
                        st.batch = w.batch;
                        st.mode = Mode::Worker(Box::new(w));
                        self.verify_worker(&mut st, payload.as_ref(), group);
                    }
                    Err(e) => st.fail(inprocess::outcome_of(&e), format!("worker: {e}")),
                }
                if st.outcome.is_some() {
                    events.runs_dropped(runs_per_cell);
                }
                states.push(st);
                continue;
            };
            let argv = render(command)?;
            let req = RunRequest {
                argv,
                cwd: Some(cwd),
                env: implementation.env.clone(),
                stdin: if op.stdin { input.clone() } else { None },
                stdout: (op.output == OutputMode::Stdout).then(|| out.clone()),
                stderr: Some(dir.join("stderr")),
                timeout: group.timeout,
                memory_limit: implementation.memory_limit,
                exact_memory: false,
            };
            states.push(CellState {
                imp,
                outcome: None,
                message: None,
                samples: Samples::default(),
                warmup_wall_ns: vec![],
                digests: vec![],
                mode: Mode::Process(req),
                out: (op.output != OutputMode::None).then_some(out),
                worker: None,
                stop_rule: StopRule::Fixed,
                done: false,
                batch: 1,
            });
        }

        if self.sample_rounds(&mut states, group, payload.as_ref(), exec, events) {
            return Ok(vec![]);
        }
        // Workers are asked for their output once more after measuring: state
        // the operation corrupted would show here.
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            self.verify_worker(st, payload.as_ref(), group);
        }
        for st in &mut states {
            if let Mode::Worker(w) = std::mem::replace(&mut st.mode, Mode::Process(RunRequest::default())) {
                w.finish();
            }
        }
        self.compare_outputs(&mut states, group);

        for st in states {
            let outcome = st.outcome.unwrap_or(Outcome::Ok);
            finished.push(Cell {
                outcome,
                warmup_runs: st.warmup_wall_ns.len() as u32,
                message: st.message,
                warmup_wall_ns: st.warmup_wall_ns,
                samples: st.samples,
                worker: st.worker,
                stop_rule: if outcome == Outcome::Ok {
                    st.stop_rule
                } else {
                    StopRule::Failed
                },
                ..blank(st.imp, outcome, String::new())
            });
        }
        // Keep report order: the suite's implementation order.
        finished.sort_by_key(|c| suite.implementations.iter().position(|i| i.name == c.implementation));
        Ok(finished)
    }

    /// Warm-up rounds, then measured rounds, as the group's policy says.
    /// Returns true when interrupted.
    fn sample_rounds(
        &mut self,
        states: &mut [CellState],
        group: &Group,
        payload: Option<&PayloadFile>,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let planned = (group.warmup + group.runs) as usize;
        let started = Instant::now();
        let mut round = 0usize;
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
                break;
            }
            if self.take_round(states, &wants, round, planned, true, payload, group, exec, events) {
                return true;
            }
            round += 1;
            warm_rounds += 1;
        }
        // Warm code is faster than the code calibration saw: grow batches that now fall short.
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            if let Mode::Worker(w) = &mut st.mode {
                match w.calibrate() {
                    Ok(()) => st.batch = w.batch,
                    Err(e) => st.fail(inprocess::outcome_of(&e), format!("calibration: {e}")),
                }
            }
        }
        let mut measured = 0u32;
        loop {
            let wants: Vec<bool> = states.iter().map(|st| st.outcome.is_none() && !st.done).collect();
            if !wants.contains(&true) {
                break;
            }
            if self.take_round(states, &wants, round, planned, false, payload, group, exec, events) {
                return true;
            }
            round += 1;
            measured += 1;
            match group.sampling {
                Sampling::Fixed => {
                    if measured >= group.runs {
                        break;
                    }
                }
                Sampling::Precision {
                    precision,
                    max_runs,
                    max_time,
                } => {
                    if measured < group.runs {
                        continue;
                    }
                    for st in states.iter_mut().filter(|s| s.outcome.is_none() && !s.done) {
                        if policy::precise(&st.samples.per_call_ns(), precision) {
                            st.done = true;
                            st.stop_rule = StopRule::Precision;
                        }
                    }
                    let limit = if measured >= max_runs {
                        Some(StopRule::MaxRuns)
                    } else if started.elapsed() >= max_time {
                        Some(StopRule::MaxTime)
                    } else {
                        None
                    };
                    if let Some(rule) = limit {
                        for st in states.iter_mut().filter(|s| s.outcome.is_none() && !s.done) {
                            st.stop_rule = rule;
                        }
                        break;
                    }
                }
            }
        }
        false
    }

    /// One round: each wanting cell takes one sample, in an order rotated by
    /// `round`. Returns true when interrupted.
    #[allow(clippy::too_many_arguments)]
    fn take_round(
        &mut self,
        states: &mut [CellState],
        wants: &[bool],
        round: usize,
        planned: usize,
        warmup: bool,
        payload: Option<&PayloadFile>,
        group: &Group,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> bool {
        let n = states.len();
        if round >= planned {
            events.runs_added(wants.iter().filter(|w| **w).count() as u64);
        }
        for k in 0..n {
            let s = (k + round) % n;
            if !wants[s] || states[s].outcome.is_some() {
                continue;
            }
            if let Mode::Process(req) = &states[s].mode {
                if let Some(out) = &states[s].out {
                    let _ = fs::remove_file(out);
                }
                // Warm-up runs measure memory exactly (see RunRequest::exact_memory).
                let record = if warmup {
                    exec.run(&RunRequest {
                        exact_memory: true,
                        ..req.clone()
                    })
                } else {
                    exec.run(req)
                };
                if interrupted() {
                    return true;
                }
                self.absorb(&mut states[s], record, warmup, payload, group);
            } else {
                self.sample_worker(&mut states[s], warmup);
                if interrupted() {
                    return true;
                }
            }
            events.run_done();
            if states[s].outcome.is_some() {
                events.runs_dropped(planned.saturating_sub(round + 1) as u64);
            }
        }
        false
    }

    /// Classifies one process run and records it into its cell.
    fn absorb(&mut self, st: &mut CellState, r: RunRecord, warmup: bool, payload: Option<&PayloadFile>, group: &Group) {
        let op = &self.suite.operations[group.operation];
        let Mode::Process(req) = &st.mode else { return };
        if r.exit != Exit::Code(op.exit_code) {
            let (outcome, mut msg) = describe(&r.exit, op.exit_code);
            if let Some(err) = &req.stderr {
                // The last lines are where runtimes put the error itself.
                let t = tail(err, 2000);
                let lines: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
                if !lines.is_empty() {
                    msg = format!("{msg}; stderr: {}", lines[lines.len().saturating_sub(3)..].join(" / "));
                }
            }
            st.fail(
                outcome,
                format!("{} run: {msg}", if warmup { "warm-up" } else { "measured" }),
            );
            return;
        }
        if let Some(out) = st.out.clone().filter(|_| op.checks_output()) {
            let digest = if out.is_file() {
                payload::digest_file(&out).map_err(|e| format!("cannot read the output: {e}"))
            } else {
                Err(format!("the run produced no output file ({})", out.display()))
            };
            if let Err(msg) = digest.and_then(|d| self.check_digest(d, payload, group).map(|()| st.digests.push(d))) {
                st.fail(Outcome::WrongOutput, msg);
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
        }
    }

    /// Takes one in-process sample and records it into its cell.
    fn sample_worker(&mut self, st: &mut CellState, warmup: bool) {
        let Mode::Worker(w) = &mut st.mode else { return };
        match w.sample() {
            Ok(s) if warmup => st.warmup_wall_ns.push(s.elapsed_ns),
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

    /// Asks a worker for its output and checks it like a process's output.
    fn verify_worker(&mut self, st: &mut CellState, payload: Option<&PayloadFile>, group: &Group) {
        let Mode::Worker(w) = &mut st.mode else { return };
        match w.verify() {
            Ok((digest, _)) => {
                if let Err(msg) = self.check_digest(digest, payload, group) {
                    st.fail(Outcome::WrongOutput, msg);
                } else {
                    st.digests.push(digest);
                }
            }
            Err(e) => st.fail(inprocess::outcome_of(&e), format!("verify: {e}")),
        }
    }

    fn digest(&mut self, path: &Path) -> std::io::Result<Digest> {
        if let Some(d) = self.digests.get(path) {
            return Ok(*d);
        }
        let d = payload::digest_file(path)?;
        self.digests.insert(path.to_path_buf(), d);
        Ok(d)
    }

    /// The output checks an operation asks for, on the SHA-256 of one output.
    fn check_digest(&mut self, got: Digest, payload: Option<&PayloadFile>, group: &Group) -> Result<(), String> {
        let op = &self.suite.operations[group.operation];
        if op.roundtrip {
            let p = payload.expect("validated: roundtrip needs a payload");
            let want = self
                .digest(&p.path)
                .map_err(|e| format!("cannot read the payload: {e}"))?;
            if got != want {
                return Err("round trip failed: the output differs from the payload".into());
            }
        }
        if let Some(t) = &op.expect_file {
            let tmp = self.tmp.display().to_string();
            let rel = t
                .render_with(|n| {
                    if n == "tmp" {
                        Some(tmp.clone())
                    } else {
                        group.params.get(n).map(|v| v.to_string())
                    }
                })
                .map_err(|n| format!("unknown placeholder {{{n}}}"))?;
            let path = self.suite.dir.join(rel);
            let want = self
                .digest(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if got != want {
                return Err(format!("the output differs from {}", path.display()));
            }
        }
        if let Some(hex) = &op.expect_sha256
            && &got.hex() != hex
        {
            return Err(format!("the output's SHA-256 is {}, expected {hex}", got.hex()));
        }
        Ok(())
    }

    /// `same_output`: every run of every implementation must produce the same
    /// bytes. The reference is the baseline's output when it ran fine, else
    /// the first implementation's that did.
    fn compare_outputs(&self, states: &mut [CellState], group: &Group) {
        if !self.suite.operations[group.operation].same_output {
            return;
        }
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            if st.digests.windows(2).any(|w| w[0] != w[1]) {
                st.outcome = Some(Outcome::WrongOutput);
                st.message = Some("the output differs from one run to the next".into());
            }
        }
        let name = |st: &CellState| self.suite.implementations[st.imp].name.clone();
        let reference = states
            .iter()
            .filter(|s| s.outcome.is_none() && !s.digests.is_empty())
            .min_by_key(|s| {
                if Some(name(s)) == self.suite.baseline {
                    0
                } else {
                    1 + s.imp
                }
            })
            .map(|s| (name(s), s.digests[0]));
        let Some((ref_name, ref_digest)) = reference else {
            return;
        };
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            if st.digests.first().is_some_and(|d| *d != ref_digest) {
                st.outcome = Some(Outcome::WrongOutput);
                st.message = Some(format!("the output differs from {ref_name}'s"));
            }
        }
    }

    /// The output of operation `op` by implementation `imp` at these
    /// parameters, producing it with one unmeasured run if it is missing
    /// (after `--resume`, or when `--only` left the producer out).
    fn ensure_artifact(
        &mut self,
        op: usize,
        imp: usize,
        group: &Group,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> Result<PathBuf, String> {
        let producer = &self.suite.operations[op];
        let id = cell_id(&producer.name, &self.suite.implementations[imp].name, &group.params);
        if let Some(o) = self.outcomes.get(&id).filter(|o| **o != Outcome::Ok) {
            return Err(format!(
                "its input from '{}' is missing: that cell ended {}",
                producer.name,
                o.label()
            ));
        }
        let path = self.cell_dir(op, imp, &group.params).join("out");
        if path.is_file() {
            return Ok(path);
        }
        events.note(&format!(
            "producing the input from '{}' (one unmeasured run)",
            producer.name
        ));
        let sub = Group {
            operation: op,
            implementations: vec![imp],
            skipped: vec![],
            runs: 1,
            warmup: 0,
            ..group.clone()
        };
        let cells = self.run_group(&sub, exec, &mut NoEvents).map_err(|e| e.to_string())?;
        match cells.first() {
            Some(c) if c.outcome == Outcome::Ok && path.is_file() => Ok(path),
            Some(c) => Err(format!(
                "its input from '{}' could not be produced: {}",
                producer.name,
                c.message.clone().unwrap_or_else(|| c.outcome.label().into())
            )),
            None => Err(format!("its input from '{}' could not be produced", producer.name)),
        }
    }
}

fn render_owned(r: Result<String, String>) -> Result<String> {
    r.map_err(|n| anyhow!("unknown placeholder {{{n}}}"))
}

#[cfg(test)]
mod tests;
