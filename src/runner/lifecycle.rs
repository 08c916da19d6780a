//! Setup and teardown: the suite's commands, then each implementation's,
//! run once around the measured groups. A failed suite setup stops the run;
//! a failed implementation setup fails that implementation's cells only, as
//! does a failed build (`Implementation::broken`, its setup then not run);
//! teardown problems are reported and change no result.

use std::collections::HashSet;
use std::fs;

use anyhow::{Result, bail};

use super::failure::describe;
use super::scope::{implementation_scope, suite_scope};
use super::{Events, Runner};
use crate::base::placeholder::CommandTemplate;
use crate::exec::tail;
use crate::exec::{Executor, Exit, RunRequest};
use crate::suite::Implementation;

impl Runner<'_> {
    /// Runs suite and implementation setup commands. A failed suite setup is an
    /// error; a failed implementation setup fails that implementation's cells.
    pub(crate) fn setup(&mut self, exec: &mut dyn Executor, events: &mut dyn Events) -> Result<()> {
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
            if let Some(why) = &imp.broken {
                self.setup_failed.insert(i, why.clone());
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
    pub(crate) fn teardown(&mut self, exec: &mut dyn Executor) -> Vec<String> {
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

    pub(super) fn run_plain(
        &self,
        exec: &mut dyn Executor,
        cmd: &CommandTemplate,
        imp: Option<&Implementation>,
    ) -> Result<(), String> {
        let scope = match imp {
            Some(i) => implementation_scope(i, &self.tmp),
            None => suite_scope(&self.tmp),
        }
        .with_all(self.globals.iter().map(|(k, v)| (k, v)));
        let argv = scope.command(cmd).map_err(|e| e.to_string())?;
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
}
