//! Validation of `[implementations.*]`: each one's variables and variants,
//! its command per operation (or its worker), its own commands (setup,
//! teardown, version) and files; variants become implementations of their
//! own, named `<implementation>-<variant>`.

use std::path::Path;

use super::model::{ImplementationSpec, SuiteFile};
use super::validate::{Names, Validator};
use super::{BUILD_PLACEHOLDERS, Build, Implementation, Input, Operation, RUN_PLACEHOLDERS, SuiteError};
use crate::base::placeholder::CommandTemplate;
use crate::base::units::parse_size;

/// The smallest memory limit accepted: below it nothing can even start.
const MIN_MEMORY_LIMIT: u64 = 1 << 20;

impl Validator<'_> {
    pub(super) fn implementations(
        &self,
        file: &SuiteFile,
        names: &Names,
        operations: &[Operation],
        dir: &Path,
        suite_shell: bool,
    ) -> Result<Vec<Implementation>, SuiteError> {
        let mut implementations = Vec::new();
        for (iname, spec) in &file.implementations {
            if iname.is_empty() {
                return Err(self.err("an implementation has an empty name"));
            }
            let base = self.implementation(file, names, operations, dir, suite_shell, iname, spec)?;
            for (vname, vv) in &spec.variants {
                let mut vars = spec.vars.clone();
                vars.extend(vv.iter().map(|(k, v)| (k.clone(), v.clone())));
                implementations.push(Implementation {
                    name: format!("{iname}-{vname}"),
                    vars: vars.into_iter().collect(),
                    ..base.clone()
                });
            }
            if spec.variants.is_empty() {
                implementations.push(base);
            }
        }
        let names: Vec<&str> = implementations.iter().map(|i| i.name.as_str()).collect();
        if let Some(dup) = names
            .iter()
            .enumerate()
            .find(|(i, n)| names[..*i].contains(n))
            .map(|(_, n)| n)
        {
            return Err(self.err(format!(
                "two implementations are named '{dup}' (variants are named <implementation>-<variant>)"
            )));
        }
        Ok(implementations)
    }

    /// One implementation as declared (before its variants are expanded).
    #[allow(clippy::too_many_arguments)]
    fn implementation(
        &self,
        file: &SuiteFile,
        names: &Names,
        operations: &[Operation],
        dir: &Path,
        suite_shell: bool,
        iname: &str,
        spec: &ImplementationSpec,
    ) -> Result<Implementation, SuiteError> {
        let shell = spec.shell.unwrap_or(suite_shell);
        let own_vars = self.own_vars(names, iname, spec)?;
        let is_own = |n: &str| own_vars.iter().any(|v| v == n);
        if let Some(extra) = spec.unsupported.keys().find(|k| !file.operations.contains_key(*k)) {
            return Err(self.err(format!(
                "implementations.{iname}.unsupported.{extra}: no operation named '{extra}' in [operations]"
            )));
        }
        if let Some(both) = spec.unsupported.keys().find(|k| spec.run.contains_key(*k)) {
            return Err(self.err(format!(
                "implementations.{iname}: operation '{both}' has a run command and is listed as unsupported; keep one"
            )));
        }
        if let Some(extra) = spec.run.keys().find(|k| !file.operations.contains_key(*k)) {
            let at = spec.run[extra].span().start;
            return Err(self.err_at(
                at,
                format!("implementations.{iname}.run.{extra}: no operation named '{extra}' in [operations]"),
            ));
        }
        let what = format!("implementations.{iname}");
        let worker = match &spec.worker {
            Some(w) => {
                let allowed = |n: &str| {
                    n == "tmp"
                        || n == "impl"
                        || names.is_param(n)
                        || names.is_param_label(n)
                        || names.is_var(n)
                        || is_own(n)
                        || names.is_service_port(n)
                };
                Some(self.command(&format!("{what}.worker"), w, None, shell, &allowed)?)
            }
            None => None,
        };
        let commands = self.run_commands(names, operations, iname, spec, worker.is_some(), shell, &is_own)?;
        let impl_allowed = |n: &str| n == "tmp" || n == "impl" || is_own(n) || names.is_service_port(n);
        let list = |cmds: &[String], key: &str| -> Result<Vec<CommandTemplate>, SuiteError> {
            cmds.iter()
                .map(|c| self.command(&format!("{what}.{key}"), c, None, shell, &impl_allowed))
                .collect()
        };
        let cell_allowed = |n: &str| {
            n == "tmp" || n == "impl" || names.is_param(n) || names.is_param_label(n) || names.is_var(n) || is_own(n)
        };
        let cell_list = |cmds: &[String], key: &str| -> Result<Vec<CommandTemplate>, SuiteError> {
            cmds.iter()
                .map(|c| self.command(&format!("{what}.{key}"), c, None, shell, &cell_allowed))
                .collect()
        };
        let version = match &spec.version {
            Some(v) => Some(self.command(&format!("{what}.version"), v, None, shell, &impl_allowed)?),
            None => None,
        };
        let memory_limit = match &spec.memory_limit {
            Some(m) => {
                let limit = parse_size(m).map_err(|e| self.err(format!("{what}.memory_limit: {e}")))?;
                if limit.0 < MIN_MEMORY_LIMIT {
                    return Err(self.err(format!(
                        "{what}.memory_limit = \"{m}\": no program starts in less than 1 MiB; give a real limit or remove it"
                    )));
                }
                Some(limit)
            }
            None => None,
        };
        let build = self.build(iname, spec, dir, shell, &is_own)?;
        let own_only = |n: &str| n == "impl" || is_own(n);
        let artifact = match &spec.artifact {
            Some(a) => Some(self.template(&format!("{what}.artifact"), a, &own_only)?),
            None => None,
        };
        Ok(Implementation {
            name: iname.to_string(),
            declared: iname.to_string(),
            commands,
            worker,
            version,
            setup: list(&spec.setup, "setup")?,
            teardown: list(&spec.teardown, "teardown")?,
            cell_setup: cell_list(&spec.cell_setup, "cell_setup")?,
            cell_teardown: cell_list(&spec.cell_teardown, "cell_teardown")?,
            prepare: cell_list(&spec.prepare, "prepare")?,
            conclude: cell_list(&spec.conclude, "conclude")?,
            cwd: spec.cwd.as_ref().map(|c| dir.join(c)),
            env: spec.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            memory_limit,
            note: spec.note.clone(),
            artifact,
            vars: spec.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            unsupported: operations
                .iter()
                .enumerate()
                .filter_map(|(i, op)| spec.unsupported.get(&op.name).map(|why| (i, why.clone())))
                .collect(),
            build,
            revision: None,
            broken: None,
        })
    }

    /// `repo` and `build`: where the implementation is built from, and how.
    /// Its build command knows `{checkout}`, `{rev}` and its own vars only:
    /// one build serves every column of that commit.
    fn build(
        &self,
        iname: &str,
        spec: &ImplementationSpec,
        dir: &Path,
        shell: bool,
        is_own: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Build>, SuiteError> {
        if spec.repo.is_none() && spec.build.is_none() {
            return Ok(None);
        }
        let command = match &spec.build {
            Some(b) => Some(self.command(&format!("implementations.{iname}.build"), b, None, shell, is_own)?),
            None => None,
        };
        if spec.repo.as_deref().is_some_and(|r| r.trim().is_empty()) {
            return Err(self.err(format!(
                "implementations.{iname}.repo is empty: name the repository's folder, relative to the suite (\".\" for the suite's own)"
            )));
        }
        Ok(Some(Build {
            repo: dir.join(spec.repo.as_deref().unwrap_or(".")),
            command,
        }))
    }

    /// The implementation's own variable names (its vars and every variant's),
    /// checked to be given in every variant and to take no other name.
    fn own_vars(&self, names: &Names, iname: &str, spec: &ImplementationSpec) -> Result<Vec<String>, SuiteError> {
        let mut own_vars: Vec<String> = spec.vars.keys().cloned().collect();
        for vv in spec.variants.values() {
            own_vars.extend(vv.keys().filter(|k| !spec.vars.contains_key(*k)).cloned());
        }
        own_vars.sort();
        own_vars.dedup();
        for (vname, vv) in &spec.variants {
            if let Some(missing) = own_vars
                .iter()
                .find(|k| !vv.contains_key(*k) && !spec.vars.contains_key(*k))
            {
                return Err(self.err(format!(
                    "implementations.{iname}.variants.{vname}: no value for '{missing}' (give it in every variant, or a default in vars)"
                )));
            }
        }
        if spec.repo.is_some() || spec.build.is_some() {
            if let Some(clash) = BUILD_PLACEHOLDERS.iter().find(|p| own_vars.iter().any(|v| v == *p)) {
                return Err(self.err(format!(
                    "implementations.{iname}: `{{{clash}}}` is set by versus for an implementation built from a repository (repo, build); give the var another name"
                )));
            }
            own_vars.extend(BUILD_PLACEHOLDERS.iter().map(|p| p.to_string()));
        }
        if let Some(clash) = own_vars
            .iter()
            .find(|k| names.is_param(k) || names.is_var(k) || RUN_PLACEHOLDERS.contains(&k.as_str()))
        {
            return Err(self.err(format!(
                "implementations.{iname}: the var '{clash}' is already a matrix parameter, a suite var or a built-in placeholder"
            )));
        }
        Ok(own_vars)
    }

    /// One command per operation, in operation order; `None` where the worker serves it.
    #[allow(clippy::too_many_arguments)]
    fn run_commands(
        &self,
        names: &Names,
        operations: &[Operation],
        iname: &str,
        spec: &ImplementationSpec,
        has_worker: bool,
        shell: bool,
        is_own: &dyn Fn(&str) -> bool,
    ) -> Result<Vec<Option<CommandTemplate>>, SuiteError> {
        let mut commands = Vec::new();
        for (oi, op) in operations.iter().enumerate() {
            if spec.unsupported.contains_key(&op.name) {
                commands.push(None);
                continue;
            }
            let Some(cmd) = spec.run.get(&op.name) else {
                if !has_worker {
                    return Err(self.err(format!(
                        "implementations.{iname} has no command for operation '{}': add run.{} = \"...\" (or a worker)",
                        op.name, op.name
                    )));
                }
                if let Input::Operation(j) = op.input
                    && !spec.run.contains_key(&operations[j].name)
                {
                    return Err(self.err(format!(
                        "implementations.{iname}: operation '{}' consumes '{}', which its worker serves; an in-process operation's output is not a file, so a chain needs a run command for '{}'",
                        op.name, operations[j].name, operations[j].name
                    )));
                }
                commands.push(None);
                continue;
            };
            let earlier: Vec<String> = operations[..oi].iter().map(|o| format!("{}.out", o.name)).collect();
            let allowed = |n: &str| {
                RUN_PLACEHOLDERS.contains(&n)
                    || names.is_param(n)
                    || names.is_param_label(n)
                    || names.is_var(n)
                    || is_own(n)
                    || names.is_service_port(n)
                    || earlier.iter().any(|e| e == n)
            };
            let what = format!("implementations.{iname}.run.{}", op.name);
            commands.push(Some(self.command(
                &what,
                cmd.get_ref(),
                Some(cmd.span().start),
                shell,
                &allowed,
            )?));
        }
        Ok(commands)
    }
}
