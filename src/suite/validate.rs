//! Validation of a parsed suite file into a `Suite`, in named parts: names
//! (matrix and vars), payload, operations, implementations (their own file),
//! baseline, overrides, services and settings. Each part checks what it can
//! on its own; every error names the file, the key, and the line where the
//! text allows.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indexmap::IndexMap;

use super::model::{MatrixValues, OutputMode, SuiteFile, WarmupSpec};
use super::{
    DEFAULT_MIN_SAMPLE_TIME, DEFAULT_RUNS, DEFAULT_TIMEOUT, DEFAULT_WARMUP, Implementation, Input, Operation, Payload,
    RUN_PLACEHOLDERS, Settings, Suite, SuiteError, Warmup,
};
use crate::base::folder::colliding;
use crate::base::params::ParamValue;
use crate::base::placeholder::{CommandTemplate, Template};
use crate::base::units::{parse_duration, parse_size};

/// The longest command text accepted: Linux's usual limit on a program's
/// arguments and environment together (`ARG_MAX`, a quarter of an 8 MiB stack).
pub(super) const COMMAND_MAX: usize = 2 << 20;

pub(super) fn line_col(path: &Path, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{}:{line}:{col}", path.display())
}

pub(super) struct Validator<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

/// The suite's own placeholder names: matrix parameters and `[vars]`.
pub(super) struct Names<'f> {
    file: &'f SuiteFile,
}

impl Names<'_> {
    pub(super) fn is_param(&self, n: &str) -> bool {
        self.file.matrix.contains_key(n)
    }
    /// `{<param>.label}`: the label of a parameter's value in a cell's own
    /// commands (for a parameter without labels, the value itself).
    pub(super) fn is_param_label(&self, n: &str) -> bool {
        n.strip_suffix(".label").is_some_and(|p| self.is_param(p))
    }
    pub(super) fn is_var(&self, n: &str) -> bool {
        self.file.vars.contains_key(n)
    }
    /// `{<service>.port}`: the free port versus picked for a service.
    pub(super) fn is_service_port(&self, n: &str) -> bool {
        n.strip_suffix(".port")
            .is_some_and(|s| self.file.services.contains_key(s))
    }
}

impl Validator<'_> {
    pub(super) fn err(&self, message: impl Into<String>) -> SuiteError {
        SuiteError {
            location: self.path.display().to_string(),
            message: message.into(),
        }
    }

    pub(super) fn err_at(&self, offset: usize, message: impl Into<String>) -> SuiteError {
        SuiteError {
            location: line_col(self.path, self.text, offset),
            message: message.into(),
        }
    }

    /// A duration value, which must be more than zero.
    pub(super) fn duration(&self, key: &str, text: &Option<String>) -> Result<Option<Duration>, SuiteError> {
        let Some(t) = text.as_deref() else { return Ok(None) };
        let d = parse_duration(t).map_err(|e| self.err(format!("{key}: {e}")))?;
        if d.is_zero() {
            return Err(self.err(format!("{key} = \"{t}\": must be more than zero")));
        }
        Ok(Some(d))
    }

    /// The suite file's folder, which relative paths in it start from.
    pub(super) fn dir(&self) -> PathBuf {
        match self.path.parent().map(Path::to_path_buf) {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => PathBuf::from("."),
        }
    }

    /// Parses a command and checks its placeholders against `allowed`.
    /// A command longer than [`COMMAND_MAX`] is refused before it is parsed.
    pub(super) fn command(
        &self,
        what: &str,
        text: &str,
        offset: Option<usize>,
        shell: bool,
        allowed: &dyn Fn(&str) -> bool,
    ) -> Result<CommandTemplate, SuiteError> {
        let fail = |msg: String| match offset {
            Some(o) => self.err_at(o, format!("{what}: {msg}")),
            None => self.err(format!("{what}: {msg}")),
        };
        if text.len() > COMMAND_MAX {
            return Err(fail(format!(
                "the command is {} bytes; no system starts a command over {} KiB (its arguments and \
environment together), so it could never run: pass data through a file",
                text.len(),
                COMMAND_MAX >> 10
            )));
        }
        if !shell && let Some(syntax) = super::shell::shell_syntax(text) {
            return Err(fail(format!(
                "`{syntax}` in `{text}` is shell syntax, but commands run without a shell, so it would reach the \
program as an argument; set `shell = true` in [settings] to run commands through `sh -c`, write the command as \
`sh -c '…'`, or quote it to pass it as an argument"
            )));
        }
        let cmd = CommandTemplate::parse(text, shell).map_err(|e| fail(e.to_string()))?;
        if let Some(bad) = cmd.names().into_iter().find(|n| !allowed(n)) {
            return Err(fail(format!("unknown placeholder {{{bad}}} in `{text}`")));
        }
        Ok(cmd)
    }

    pub(super) fn template(
        &self,
        what: &str,
        text: &str,
        allowed: &dyn Fn(&str) -> bool,
    ) -> Result<Template, SuiteError> {
        let t = Template::parse(text).map_err(|e| self.err(format!("{what}: {e}")))?;
        if let Some(bad) = t.names().find(|n| !allowed(n)) {
            return Err(self.err(format!("{what}: unknown placeholder {{{bad}}} in `{text}`")));
        }
        Ok(t)
    }

    pub(super) fn validate(&self, file: SuiteFile) -> Result<Suite, SuiteError> {
        let dir = self.dir();
        let shell = file.settings.shell.unwrap_or(false);
        self.check_names(&file)?;
        if file.operations.is_empty() {
            return Err(self.err("no operations: add at least one [operations.NAME] table"));
        }
        if file.implementations.is_empty() {
            return Err(self.err("no implementations: add at least one [implementations.NAME] table"));
        }
        let names = Names { file: &file };
        let payload = self.payload(&file, &names, shell)?;
        let operations = self.operations(&file, &names, payload.is_some())?;
        let setup_allowed = |n: &str| n == "tmp" || names.is_service_port(n);
        let suite_cmds = |list: &[String], what: &str| -> Result<Vec<CommandTemplate>, SuiteError> {
            list.iter()
                .map(|c| self.command(what, c, None, shell, &setup_allowed))
                .collect()
        };
        let setup = suite_cmds(&file.setup, "setup")?;
        let teardown = suite_cmds(&file.teardown, "teardown")?;
        let implementations = self.implementations(&file, &names, &operations, &dir, shell)?;
        let expand = |name: &str| expand_name(&file, &implementations, name);
        if let Some(b) = &file.baseline
            && !implementations.iter().any(|i| &i.name == b)
        {
            return Err(self.err(format!(
                "baseline = \"{b}\": no such implementation (expected one of: {})",
                implementations
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        for op in &operations {
            if let Some(r) = &op.reference
                && !implementations.iter().any(|i| &i.name == r)
            {
                return Err(self.err(format!(
                    "operations.{}.reference = \"{r}\": no such implementation (expected one of: {})",
                    op.name,
                    implementations
                        .iter()
                        .map(|i| i.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        let overrides = self.overrides(&file, &operations, &expand)?;
        let services = self.services(&file, &names, &dir, shell)?;
        let report = self.report(&file, &implementations)?;
        let settings = self.settings(&file)?;
        Ok(Suite {
            path: self.path.to_path_buf(),
            dir,
            name: file.name.clone().unwrap_or_else(|| {
                self.path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }),
            description: file.description.clone(),
            baseline: file.baseline.clone(),
            settings,
            matrix: matrix_points(&file),
            labels: file
                .matrix
                .iter()
                .filter_map(|(name, values)| match values {
                    MatrixValues::Labelled(table) => Some((name.clone(), table.clone())),
                    MatrixValues::List(_) => None,
                })
                .collect(),
            vars: file.vars.clone(),
            payload,
            setup,
            teardown,
            operations,
            implementations,
            overrides,
            services,
            report,
        })
    }

    /// Matrix parameters and `[vars]`: non-empty, and not taking a built-in name.
    fn check_names(&self, file: &SuiteFile) -> Result<(), SuiteError> {
        for (name, values) in &file.matrix {
            let empty = match values {
                MatrixValues::List(v) => v.is_empty(),
                MatrixValues::Labelled(t) => t.is_empty(),
            };
            if empty {
                return Err(self.err(format!(
                    "matrix.{name} has no values: give at least one, or remove the parameter"
                )));
            }
            if RUN_PLACEHOLDERS.contains(&name.as_str()) || name.contains('.') {
                return Err(self.err(format!(
                    "matrix.{name}: this name is reserved for a placeholder; choose another parameter name"
                )));
            }
        }
        let kinds = [
            (
                "implementations",
                file.implementations.keys().map(String::as_str).collect::<Vec<_>>(),
            ),
            ("operations", file.operations.keys().map(String::as_str).collect()),
        ];
        for (kind, names) in kinds {
            if let Some((a, b, folder)) = colliding(names) {
                return Err(self.err(format!(
                    "{kind} \"{a}\" and \"{b}\" would share one folder ({folder}): their outputs would mix; rename one"
                )));
            }
        }
        for (name, values) in matrix_points(file) {
            let texts: Vec<String> = values.iter().map(ToString::to_string).collect();
            if let Some((a, b, folder)) = colliding(texts.iter().map(String::as_str)) {
                return Err(self.err(format!(
                    "matrix.{name}: the values \"{a}\" and \"{b}\" would share one folder ({folder}): their outputs would mix; change one"
                )));
            }
        }
        for name in file.vars.keys() {
            if file.matrix.contains_key(name) || RUN_PLACEHOLDERS.contains(&name.as_str()) || name.contains('.') {
                return Err(self.err(format!(
                    "vars.{name}: the name is taken by a matrix parameter or a built-in placeholder"
                )));
            }
        }
        Ok(())
    }

    fn payload(&self, file: &SuiteFile, names: &Names, shell: bool) -> Result<Option<Payload>, SuiteError> {
        let Some(p) = &file.payload else { return Ok(None) };
        let param_only = |n: &str| names.is_param(n);
        let given = [p.size.is_some(), p.file.is_some(), p.command.is_some()];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(self.err("payload: give exactly one of `size` (generated bytes), `file` or `command`"));
        }
        if let Some(size) = p.size.as_deref().filter(|s| !s.contains('{')) {
            parse_size(size).map_err(|e| self.err(format!("payload.size = \"{size}\": {e}")))?;
        }
        Ok(Some(if let Some(size) = &p.size {
            Payload::Random {
                size: self.template("payload.size", size, &param_only)?,
                seed: p.seed.unwrap_or(0),
            }
        } else if let Some(f) = &p.file {
            Payload::File(self.template("payload.file", f, &param_only)?)
        } else {
            let c = p.command.as_deref().unwrap_or_default();
            let allowed = |n: &str| names.is_param(n) || n == "out" || n == "tmp";
            Payload::Command(self.command("payload.command", c, None, shell, &allowed)?)
        }))
    }

    /// Operations, in file order; an input must name an earlier operation.
    fn operations(&self, file: &SuiteFile, names: &Names, has_payload: bool) -> Result<Vec<Operation>, SuiteError> {
        let op_names: Vec<&String> = file.operations.keys().collect();
        let mut operations = Vec::new();
        for (i, (name, spec)) in file.operations.iter().enumerate() {
            if name.contains('.') || name.contains('/') {
                return Err(self.err(format!("operations.{name}: names may not contain '.' or '/'")));
            }
            let input = match spec.input.as_deref() {
                None | Some("payload") => Input::Payload,
                Some(other) => match op_names[..i].iter().position(|n| n.as_str() == other) {
                    Some(j) => Input::Operation(j),
                    None if op_names.iter().any(|n| n.as_str() == other) => {
                        return Err(self.err(format!(
                            "operations.{name}.input = \"{other}\": an operation can only consume one declared before it"
                        )));
                    }
                    None => {
                        return Err(self.err(format!(
                            "operations.{name}.input = \"{other}\": no such operation (expected \"payload\" or one of: {})",
                            op_names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                        )));
                    }
                },
            };
            if input == Input::Payload && spec.stdin && !has_payload {
                return Err(self.err(format!("operations.{name}.stdin: there is no [payload] to feed")));
            }
            operations.push(self.operation(name, spec, input, names, has_payload)?);
        }
        Ok(operations)
    }

    /// One operation's output and checks.
    fn operation(
        &self,
        name: &str,
        spec: &super::model::OperationSpec,
        input: Input,
        names: &Names,
        has_payload: bool,
    ) -> Result<Operation, SuiteError> {
        let output = spec.output.unwrap_or(OutputMode::Stdout);
        let checks = spec.roundtrip || spec.same_output || spec.expect_file.is_some() || spec.expect_sha256.is_some();
        if matches!(output, OutputMode::None | OutputMode::Inherit) && checks {
            return Err(self.err(format!(
                "operations.{name}: output = \"{}\" leaves nothing to check",
                if output == OutputMode::None { "none" } else { "inherit" }
            )));
        }
        if spec.stdout_file.is_some() && output != OutputMode::Stdout {
            return Err(self.err(format!("operations.{name}.stdout_file: needs output = \"stdout\"")));
        }
        if spec.reference.is_some() && !spec.same_output {
            return Err(self.err(format!(
                "operations.{name}.reference: names whose output is right for `same_output`; add same_output = true"
            )));
        }
        if spec.roundtrip && !has_payload {
            return Err(self.err(format!(
                "operations.{name}.roundtrip: there is no [payload] to compare with"
            )));
        }
        let expect_file = match &spec.expect_file {
            Some(t) => Some(self.template(&format!("operations.{name}.expect_file"), t, &|n| {
                names.is_param(n) || n == "tmp"
            })?),
            None => None,
        };
        if let Some(hex) = &spec.expect_sha256
            && (hex.len() != 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()))
        {
            return Err(self.err(format!("operations.{name}.expect_sha256: expected 64 hex digits")));
        }
        if let Some(code) = spec.exit_code
            && !(0..=255).contains(&code)
        {
            return Err(self.err(format!(
                "operations.{name}.exit_code = {code}: an exit status is 0 to 255"
            )));
        }
        let counts_payload = match spec.throughput.as_deref() {
            None | Some("payload") => true,
            Some("none") => false,
            Some(other) => {
                return Err(self.err(format!(
                    "operations.{name}.throughput = \"{other}\": expected \"payload\" or \"none\""
                )));
            }
        };
        Ok(Operation {
            name: name.to_string(),
            input,
            stdin: spec.stdin,
            output,
            exit_code: spec.exit_code.unwrap_or(0),
            ignore_failure: spec.ignore_failure,
            stdout_file: spec.stdout_file.as_ref().map(|f| self.dir().join(f)),
            roundtrip: spec.roundtrip,
            same_output: spec.same_output,
            reference: spec.reference.clone(),
            expect_file,
            expect_sha256: spec.expect_sha256.as_ref().map(|h| h.to_ascii_lowercase()),
            counts_payload,
        })
    }

    pub(super) fn warmup(&self, field: &str, spec: &Option<WarmupSpec>) -> Result<Option<Warmup>, SuiteError> {
        match spec {
            None => Ok(None),
            Some(WarmupSpec::Runs(n)) => Ok(Some(Warmup::Runs(*n))),
            Some(WarmupSpec::Word(w)) if w == "auto" => Ok(Some(Warmup::Auto)),
            Some(WarmupSpec::Word(w)) => Err(self.err(format!("{field} = \"{w}\": give a number of runs or \"auto\""))),
        }
    }

    fn measure(&self, names: &Option<Vec<String>>) -> Result<Vec<crate::base::metric::Metric>, SuiteError> {
        parse_measure(names.as_deref().unwrap_or_default()).map_err(|e| self.err(format!("settings.measure: {e}")))
    }

    fn counter(&self, name: &Option<String>) -> Result<crate::suite::CounterChoice, SuiteError> {
        use crate::suite::CounterChoice;
        match name.as_deref().map(str::trim) {
            None | Some("auto") => Ok(CounterChoice::Auto),
            Some("perf") => Ok(CounterChoice::Perf),
            Some("valgrind") => Ok(CounterChoice::Valgrind),
            Some(other) => Err(self.err(format!(
                "settings.counter = \"{other}\": give \"auto\", \"perf\" or \"valgrind\""
            ))),
        }
    }

    fn settings(&self, file: &SuiteFile) -> Result<Settings, SuiteError> {
        let passes = file.settings.passes.unwrap_or(super::DEFAULT_PASSES);
        let settings = Settings {
            runs: file.settings.runs.unwrap_or(DEFAULT_RUNS),
            passes,
            forks: file.settings.forks.unwrap_or(passes),
            order: file.settings.order.unwrap_or_default(),
            lead_in: file.settings.lead_in.unwrap_or(true),
            resolve: file
                .settings
                .resolve
                .as_deref()
                .map(|r| {
                    crate::base::units::parse_percent(r)
                        .map_err(|e| self.err(format!("settings.resolve = \"{r}\": {e}")))
                })
                .transpose()?,
            warmup: self
                .warmup("settings.warmup", &file.settings.warmup)?
                .unwrap_or(Warmup::Runs(DEFAULT_WARMUP)),
            timeout: self
                .duration("settings.timeout", &file.settings.timeout)?
                .unwrap_or(DEFAULT_TIMEOUT),
            min_sample_time: self
                .duration("settings.min_sample_time", &file.settings.min_sample_time)?
                .unwrap_or(DEFAULT_MIN_SAMPLE_TIME),
            measure: self.measure(&file.settings.measure)?,
            counter: self.counter(&file.settings.counter)?,
            counted_runs: file.settings.counted_runs,
        };
        if settings.counted_runs == Some(0) {
            return Err(self.err("settings.counted_runs must be at least 1"));
        }
        if settings.runs == 0 {
            return Err(self.err("settings.runs must be at least 1"));
        }
        if settings.passes == 0 {
            return Err(self.err("settings.passes must be at least 1"));
        }
        if settings.forks == 0 {
            return Err(self.err("settings.forks must be at least 1"));
        }
        Ok(settings)
    }
}

/// The metrics `names` lists ("wall", "instructions"), wall time first and
/// always: it is measured on every run.
pub fn parse_measure(names: &[String]) -> Result<Vec<crate::base::metric::Metric>, String> {
    use crate::base::metric::Metric;
    let mut out = vec![Metric::Wall];
    for name in names {
        let m = Metric::parse(name)
            .ok_or_else(|| format!("\"{name}\" is not a metric: give \"wall\" and \"instructions\""))?;
        if !out.contains(&m) {
            out.push(m);
        }
    }
    Ok(out)
}

/// A name in `skip` or `baseline` may be an implementation or, for one with
/// variants, the name it was declared under (meaning all its variants).
pub(super) fn expand_name(file: &SuiteFile, implementations: &[Implementation], name: &str) -> Vec<String> {
    if implementations.iter().any(|i| i.name == name) {
        return vec![name.to_string()];
    }
    match file.implementations.get(name) {
        Some(spec) => spec.variants.keys().map(|v| format!("{name}-{v}")).collect(),
        None => vec![],
    }
}

/// Each matrix parameter's points as cells know them: its values, or for a
/// labelled parameter its labels.
pub(super) fn matrix_points(file: &SuiteFile) -> IndexMap<String, Vec<ParamValue>> {
    file.matrix
        .iter()
        .map(|(name, values)| {
            let points = match values {
                MatrixValues::List(v) => v.clone(),
                MatrixValues::Labelled(t) => t.keys().map(|l| ParamValue::Str(l.clone())).collect(),
            };
            (name.clone(), points)
        })
        .collect()
}
