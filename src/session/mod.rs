//! A session: one run of a plan, from the results document's header to its
//! end state. It prepares the run's folders, starts the suite's services,
//! runs setup, hands the plan to the runner, records each finished group
//! (journal and results file, through `checkpoint`), runs teardown, and
//! analyses what was measured. `app` only turns flags into a session and the
//! session's results into outputs.

mod checkpoint;
mod document;
mod folder;
mod preflight;
mod rebuild;
mod resume;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indexmap::IndexMap;

use crate::analysis;
use crate::environment;
use crate::exec::Executor;
use crate::exec::Services;
use crate::plan::Plan;
use crate::results::{self, Cell, Results, Revisions, RunStatus, ShardInfo, Warning};
use crate::runner::{End, Events, Runner};
use crate::suite::Suite;
pub use checkpoint::Checkpoint;
pub use rebuild::{Why, document as rebuild, journal_is_newer};

pub(crate) use document::command_line;
pub(crate) use folder::{Claim, claim};
pub(crate) use preflight::{check_baseline, check_programs, literal_program, program_exists};
pub(crate) use resume::{hint as resume_hint, notice as resume_notice, split as split_resumed};

/// One run of a plan.
pub struct Session<'a> {
    pub suite: &'a Suite,
    pub plan: &'a Plan,
    /// The run's folder: `tmp/` and `work/` are made in it and removed at the
    /// end, so it is one versus made: claimed (`folder::claim`) or temporary.
    pub dir: &'a Path,
    /// Cells finished by an earlier run (`--resume`): their groups are not run again.
    pub resume: IndexMap<String, Cell>,
    /// Where finished cells are recorded as the run goes (`versus exec` keeps none).
    pub checkpoint: Option<Checkpoint>,
    /// Warnings found before the run (a repaired journal), for the report.
    pub warnings: Vec<Warning>,
    /// The noise floor for verdicts (`--noise`).
    pub noise: f64,
    /// Which piece of a sharded run this is (`--shard`), recorded in the document.
    pub shard: Option<ShardInfo>,
    /// The git revisions measured (`--rev`), recorded in the document.
    pub revisions: Option<Revisions>,
    /// Where generated payloads are kept between runs (`payload::cache_dir`
    /// for a user's run; a test's own folder in the tests).
    pub cache: PathBuf,
}

impl Session<'_> {
    /// Runs the plan; returns the analysed results and how the run ended.
    pub fn run(mut self, exec: &mut dyn Executor, events: &mut dyn Events) -> Result<(Results, End)> {
        let suite = self.suite;
        crate::exec::interrupt::measuring();
        let tmp = self.dir.join("tmp");
        let work = self.dir.join("work");
        let mechanism = if suite.implementations.iter().any(|i| i.memory_limit.is_some()) {
            exec.memory_limit_mechanism()
        } else {
            "none needed (no memory_limit in the suite)"
        };
        let mut env = environment::collect(mechanism);
        // Read through the run; its last reading waits until every child has been reaped.
        let sampler = environment::LoadSampler::start(environment::ProcProbe, environment::LOAD_EVERY);
        env.implementations = document::implementations(suite, self.plan, &tmp);
        let mut results = document::start(suite, env, self.noise);
        results.shard = self.shard.clone();
        results.revisions = self.revisions.clone();

        let _ = fs::remove_dir_all(&work);
        fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut runner = Runner::new(suite, self.plan, work.clone(), tmp.clone(), self.cache.clone());
        runner.check_payloads()?;
        runner.done = self.resume.clone();
        runner.seed = order_seed();
        results.design = Some(crate::results::Design {
            passes: self.plan.passes,
            forks: self.plan.forks,
            order_seed: runner.seed,
            order: Some(self.plan.order),
            lead_in: Some(self.plan.lead_in),
        });
        runner.kept = Some(self.dir.join("differing-outputs"));
        if self.plan.counts() {
            let counter = crate::exec::Counter::detect(self.plan.counter)
                .map_err(|e| anyhow::anyhow!("measuring instructions: {e}"))?;
            runner.counter = Some(counter);
        }
        let ports = crate::exec::free_ports(&suite.services)
            .context("cannot find a free local port for the suite's services")?;
        let services = Services::start(&suite.services, &tmp, self.dir, &ports)?;
        let services = std::rc::Rc::new(std::cell::RefCell::new(services));
        runner.globals = ports
            .iter()
            .map(|(n, p)| (format!("{n}.port"), p.to_string()))
            .collect();
        if !suite.services.is_empty() {
            let watched = services.clone();
            runner.health = Some(Box::new(move || watched.borrow_mut().first_dead()));
            let groups = services.borrow().process_groups();
            runner.meter = Some(Box::new(crate::exec::UsageMeter::new(groups)));
            results.environment.services = document::services(suite, &services.borrow(), &ports, &tmp);
        }
        if let Some(cp) = self.checkpoint.as_mut() {
            cp.begin(&results)?;
        }
        runner.setup(exec, events)?;
        let mut all: IndexMap<String, Cell> = self.resume.clone();
        let end = runner.run(exec, events, &mut |cells: Vec<Cell>| {
            if let Some(cp) = self.checkpoint.as_mut() {
                cp.record(&cells)?;
            }
            crate::results::gather(&mut all, cells);
            Ok(())
        });
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.extend(runner.teardown(exec).into_iter().map(|problem| Warning {
            kind: "teardown_failed".into(),
            message: problem,
        }));
        results.environment.speed = (!runner.speed.is_empty()).then(|| crate::results::SpeedReadings {
            workload: crate::exec::workload(),
            samples_ns: std::mem::take(&mut runner.speed),
        });
        drop(runner);
        drop(services);
        results.environment.load = sampler.finish();
        // Scratch space (chain outputs, keys) is not a result: the journal is what resumes.
        let _ = fs::remove_dir_all(&work);
        let _ = fs::remove_dir_all(&tmp);
        // From here a signal ends versus at once: what was measured is in the journal.
        crate::exec::interrupt::finishing(&self.farewell());
        let end = end?;
        results.cells = document::into_plan_order(suite, self.plan, all);
        results.finished_at = Some(results::now_rfc3339());
        results.status = match end {
            End::Interrupted => RunStatus::Interrupted,
            End::Complete => RunStatus::Complete,
        };
        let runs = results.cells.iter().map(|c| c.samples.len()).sum();
        events.analysing(results.cells.len(), runs);
        analysis::analyze(&mut results, &warnings);
        Ok((results, end))
    }
}

impl Session<'_> {
    /// What a signal after measuring leaves (`exec::interrupt::finishing`).
    fn farewell(&self) -> String {
        match &self.checkpoint {
            Some(cp) => format!(
                "interrupted while analysing and writing the results: every finished group is in {}; `versus report {}` renders them",
                cp.journal.path.display(),
                self.dir.display()
            ),
            None => {
                "interrupted while analysing the results; versus exec keeps no journal, so nothing was written".into()
            }
        }
    }
}

/// A seed for the order of the passes: new each run, recorded in the results.
fn order_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests;
