//! Suite files: parsing (TOML → `model`) and validation into a `Suite` whose
//! commands are parsed templates and whose references are checked, so that
//! every later layer can trust it. Every error names the file, and the line
//! and column where the text allows.

pub mod model;

use std::path::{Path, PathBuf};
use std::time::Duration;

use indexmap::IndexMap;

use crate::placeholder::{CommandTemplate, Template};
use crate::units::{Bytes, parse_duration, parse_size};
pub use model::{OutputMode, ParamValue, SuiteFile};

pub const DEFAULT_RUNS: u32 = 10;
pub const DEFAULT_WARMUP: u32 = 1;
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// A bad suite file. `Display` gives `FILE:LINE:COL: message` (or `FILE: message`).
#[derive(Debug, thiserror::Error)]
#[error("{location}: {message}")]
pub struct SuiteError {
    pub location: String,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub runs: u32,
    pub warmup: u32,
    pub timeout: Duration,
    /// Minimum duration of one in-process sample (a batch of calls).
    pub min_sample_time: Duration,
}

pub const DEFAULT_MIN_SAMPLE_TIME: Duration = Duration::from_millis(10);

#[derive(Debug, Clone)]
pub enum Payload {
    /// Pseudo-random bytes; `size` may contain placeholders and is parsed per cell.
    Random {
        size: Template,
        seed: u64,
    },
    File(Template),
    Command(CommandTemplate),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Payload,
    /// Index into `Suite::operations` of the producing operation.
    Operation(usize),
}

#[derive(Debug, Clone)]
pub struct Operation {
    pub name: String,
    pub input: Input,
    pub stdin: bool,
    pub output: OutputMode,
    pub exit_code: i32,
    pub roundtrip: bool,
    pub same_output: bool,
    pub expect_file: Option<Template>,
    pub expect_sha256: Option<String>,
    pub counts_payload: bool,
}

impl Operation {
    /// Whether each run's output must be read and digested.
    pub fn checks_output(&self) -> bool {
        self.roundtrip || self.same_output || self.expect_file.is_some() || self.expect_sha256.is_some()
    }
}

#[derive(Debug, Clone)]
pub struct Implementation {
    pub name: String,
    /// One command per operation, in `Suite::operations` order; `None` where the
    /// worker serves the operation.
    pub commands: Vec<Option<CommandTemplate>>,
    /// The command that starts this implementation's in-process worker.
    pub worker: Option<CommandTemplate>,
    pub version: Option<CommandTemplate>,
    pub setup: Vec<CommandTemplate>,
    pub teardown: Vec<CommandTemplate>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub memory_limit: Option<Bytes>,
    pub note: Option<String>,
    /// The file whose size the report shows, relative to `cwd` (see `ImplementationSpec::artifact`).
    pub artifact: Option<Template>,
    /// This implementation's own placeholders (its variant's values included).
    pub vars: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct Override {
    pub when: IndexMap<String, ParamValue>,
    pub vars: IndexMap<String, String>,
    pub runs: Option<u32>,
    pub warmup: Option<u32>,
    pub timeout: Option<Duration>,
    pub skip: Vec<String>,
    pub reason: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Service {
    pub name: String,
    pub command: CommandTemplate,
    pub ready: Readiness,
    pub ready_timeout: Duration,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub enum Readiness {
    Tcp(String),
    Http(String),
    Command(CommandTemplate),
    /// No probe: ready as soon as it started.
    Started,
}

/// A validated suite.
#[derive(Debug, Clone)]
pub struct Suite {
    pub path: PathBuf,
    /// Directory relative paths in the suite resolve against.
    pub dir: PathBuf,
    pub name: String,
    pub description: Option<String>,
    pub baseline: Option<String>,
    pub settings: Settings,
    pub matrix: IndexMap<String, Vec<ParamValue>>,
    /// Default values of the suite's own placeholders (see `Override::vars`).
    pub vars: IndexMap<String, String>,
    pub payload: Option<Payload>,
    pub setup: Vec<CommandTemplate>,
    pub teardown: Vec<CommandTemplate>,
    pub operations: Vec<Operation>,
    pub implementations: Vec<Implementation>,
    pub overrides: Vec<Override>,
    pub services: Vec<Service>,
}

/// Placeholders that every operation command may use, besides parameters and `<op>.out`.
pub const RUN_PLACEHOLDERS: &[&str] = &["payload", "in", "out", "tmp", "impl", "op"];

pub fn load(path: &Path) -> Result<Suite, SuiteError> {
    let text = std::fs::read_to_string(path).map_err(|e| SuiteError {
        location: path.display().to_string(),
        message: format!("cannot read the suite file: {e}"),
    })?;
    let mut suite = parse(path, &text)?;
    // Commands run in the suite's folder while paths are resolved against it:
    // make it absolute so both agree whatever the caller's working directory.
    if let Ok(dir) = std::fs::canonicalize(&suite.dir) {
        for imp in &mut suite.implementations {
            if let Some(cwd) = &imp.cwd {
                imp.cwd = Some(dir.join(cwd.strip_prefix(&suite.dir).unwrap_or(cwd)));
            }
        }
        for svc in &mut suite.services {
            if let Some(cwd) = &svc.cwd {
                svc.cwd = Some(dir.join(cwd.strip_prefix(&suite.dir).unwrap_or(cwd)));
            }
        }
        suite.dir = dir;
    }
    Ok(suite)
}

pub fn parse(path: &Path, text: &str) -> Result<Suite, SuiteError> {
    let file: SuiteFile = toml::from_str(text).map_err(|e| {
        let location = match e.span() {
            Some(span) => line_col(path, text, span.start),
            None => path.display().to_string(),
        };
        SuiteError {
            location,
            message: e.message().trim().to_string(),
        }
    })?;
    Validator { path, text }.validate(file)
}

fn line_col(path: &Path, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{}:{line}:{col}", path.display())
}

struct Validator<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Validator<'_> {
    fn err(&self, message: impl Into<String>) -> SuiteError {
        SuiteError {
            location: self.path.display().to_string(),
            message: message.into(),
        }
    }

    fn err_at(&self, offset: usize, message: impl Into<String>) -> SuiteError {
        SuiteError {
            location: line_col(self.path, self.text, offset),
            message: message.into(),
        }
    }

    fn duration(&self, key: &str, text: &Option<String>) -> Result<Option<Duration>, SuiteError> {
        text.as_deref()
            .map(|t| parse_duration(t).map_err(|e| self.err(format!("{key}: {e}"))))
            .transpose()
    }

    /// Parses a command and checks its placeholders against `allowed`.
    fn command(
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
        let cmd = CommandTemplate::parse(text, shell).map_err(|e| fail(e.to_string()))?;
        if let Some(bad) = cmd.names().into_iter().find(|n| !allowed(n)) {
            return Err(fail(format!("unknown placeholder {{{bad}}} in `{text}`")));
        }
        Ok(cmd)
    }

    fn template(&self, what: &str, text: &str, allowed: &dyn Fn(&str) -> bool) -> Result<Template, SuiteError> {
        let t = Template::parse(text).map_err(|e| self.err(format!("{what}: {e}")))?;
        if let Some(bad) = t.names().find(|n| !allowed(n)) {
            return Err(self.err(format!("{what}: unknown placeholder {{{bad}}} in `{text}`")));
        }
        Ok(t)
    }

    fn validate(&self, file: SuiteFile) -> Result<Suite, SuiteError> {
        let dir = self.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let suite_shell = file.settings.shell.unwrap_or(false);

        for (name, values) in &file.matrix {
            if values.is_empty() {
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
        for name in file.vars.keys() {
            if file.matrix.contains_key(name) || RUN_PLACEHOLDERS.contains(&name.as_str()) || name.contains('.') {
                return Err(self.err(format!(
                    "vars.{name}: the name is taken by a matrix parameter or a built-in placeholder"
                )));
            }
        }
        let is_param = |n: &str| file.matrix.contains_key(n);
        let is_var = |n: &str| file.vars.contains_key(n);

        if file.operations.is_empty() {
            return Err(self.err("no operations: add at least one [operations.NAME] table"));
        }
        if file.implementations.is_empty() {
            return Err(self.err("no implementations: add at least one [implementations.NAME] table"));
        }

        let payload = match &file.payload {
            None => None,
            Some(p) => {
                let param_only = |n: &str| is_param(n);
                let given = [p.size.is_some(), p.file.is_some(), p.command.is_some()];
                if given.iter().filter(|g| **g).count() != 1 {
                    return Err(self.err("payload: give exactly one of `size` (generated bytes), `file` or `command`"));
                }
                if let Some(size) = &p.size {
                    let t = self.template("payload.size", size, &param_only)?;
                    Some(Payload::Random {
                        size: t,
                        seed: p.seed.unwrap_or(0),
                    })
                } else if let Some(f) = &p.file {
                    Some(Payload::File(self.template("payload.file", f, &param_only)?))
                } else {
                    let c = p.command.as_deref().unwrap_or_default();
                    let allowed = |n: &str| is_param(n) || n == "out" || n == "tmp";
                    Some(Payload::Command(self.command(
                        "payload.command",
                        c,
                        None,
                        suite_shell,
                        &allowed,
                    )?))
                }
            }
        };

        // Operations, in file order; an input must name an earlier operation.
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
            if input == Input::Payload && spec.stdin && payload.is_none() {
                return Err(self.err(format!("operations.{name}.stdin: there is no [payload] to feed")));
            }
            let output = spec.output.unwrap_or(OutputMode::Stdout);
            let checks =
                spec.roundtrip || spec.same_output || spec.expect_file.is_some() || spec.expect_sha256.is_some();
            if output == OutputMode::None && checks {
                return Err(self.err(format!("operations.{name}: output = \"none\" leaves nothing to check")));
            }
            if spec.roundtrip && payload.is_none() {
                return Err(self.err(format!(
                    "operations.{name}.roundtrip: there is no [payload] to compare with"
                )));
            }
            let expect_file = match &spec.expect_file {
                Some(t) => Some(self.template(&format!("operations.{name}.expect_file"), t, &|n| {
                    is_param(n) || n == "tmp"
                })?),
                None => None,
            };
            if let Some(hex) = &spec.expect_sha256
                && (hex.len() != 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()))
            {
                return Err(self.err(format!("operations.{name}.expect_sha256: expected 64 hex digits")));
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
            operations.push(Operation {
                name: name.clone(),
                input,
                stdin: spec.stdin,
                output,
                exit_code: spec.exit_code.unwrap_or(0),
                roundtrip: spec.roundtrip,
                same_output: spec.same_output,
                expect_file,
                expect_sha256: spec.expect_sha256.as_ref().map(|h| h.to_ascii_lowercase()),
                counts_payload,
            });
        }

        let setup_allowed = |n: &str| n == "tmp";
        let suite_cmds = |list: &[String], what: &str| -> Result<Vec<CommandTemplate>, SuiteError> {
            list.iter()
                .map(|c| self.command(what, c, None, suite_shell, &setup_allowed))
                .collect()
        };
        let setup = suite_cmds(&file.setup, "setup")?;
        let teardown = suite_cmds(&file.teardown, "teardown")?;

        let mut implementations = Vec::new();
        for (iname, spec) in &file.implementations {
            if iname.is_empty() {
                return Err(self.err("an implementation has an empty name"));
            }
            let shell = spec.shell.unwrap_or(suite_shell);
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
            if let Some(clash) = own_vars
                .iter()
                .find(|k| is_param(k) || is_var(k) || RUN_PLACEHOLDERS.contains(&k.as_str()))
            {
                return Err(self.err(format!(
                    "implementations.{iname}: the var '{clash}' is already a matrix parameter, a suite var or a built-in placeholder"
                )));
            }
            let is_own = |n: &str| own_vars.iter().any(|v| v == n);
            if let Some(extra) = spec.run.keys().find(|k| !file.operations.contains_key(*k)) {
                let at = spec.run[extra].span().start;
                return Err(self.err_at(
                    at,
                    format!("implementations.{iname}.run.{extra}: no operation named '{extra}' in [operations]"),
                ));
            }
            let worker = match &spec.worker {
                Some(w) => {
                    let allowed = |n: &str| n == "tmp" || n == "impl" || is_param(n) || is_var(n) || is_own(n);
                    Some(self.command(&format!("implementations.{iname}.worker"), w, None, shell, &allowed)?)
                }
                None => None,
            };
            let mut commands = Vec::new();
            for (oi, op) in operations.iter().enumerate() {
                let Some(cmd) = spec.run.get(&op.name) else {
                    if worker.is_some() {
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
                    }
                    return Err(self.err(format!(
                        "implementations.{iname} has no command for operation '{}': add run.{} = \"...\" (or a worker)",
                        op.name, op.name
                    )));
                };
                let earlier: Vec<String> = operations[..oi].iter().map(|o| format!("{}.out", o.name)).collect();
                let allowed = |n: &str| {
                    RUN_PLACEHOLDERS.contains(&n)
                        || is_param(n)
                        || is_var(n)
                        || is_own(n)
                        || earlier.iter().any(|e| e == n)
                };
                let what = format!("implementations.{iname}.run.{}", op.name);
                let template = self.command(&what, cmd.get_ref(), Some(cmd.span().start), shell, &allowed)?;
                commands.push(Some(template));
            }
            let impl_allowed = |n: &str| n == "tmp" || n == "impl" || is_own(n);
            let what = format!("implementations.{iname}");
            let list = |cmds: &[String], key: &str| -> Result<Vec<CommandTemplate>, SuiteError> {
                cmds.iter()
                    .map(|c| self.command(&format!("{what}.{key}"), c, None, shell, &impl_allowed))
                    .collect()
            };
            let version = match &spec.version {
                Some(v) => Some(self.command(&format!("{what}.version"), v, None, shell, &impl_allowed)?),
                None => None,
            };
            let memory_limit = match &spec.memory_limit {
                Some(m) => Some(parse_size(m).map_err(|e| self.err(format!("{what}.memory_limit: {e}")))?),
                None => None,
            };
            let own_only = |n: &str| n == "impl" || is_own(n);
            let artifact = match &spec.artifact {
                Some(a) => Some(self.template(&format!("{what}.artifact"), a, &own_only)?),
                None => None,
            };
            let base = Implementation {
                name: iname.clone(),
                commands,
                worker,
                version,
                setup: list(&spec.setup, "setup")?,
                teardown: list(&spec.teardown, "teardown")?,
                cwd: spec.cwd.as_ref().map(|c| dir.join(c)),
                env: spec.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
                memory_limit,
                note: spec.note.clone(),
                artifact,
                vars: spec.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            };
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
        // A name in `skip` or `baseline` may be an implementation or, for one with
        // variants, the name it was declared under (meaning all its variants).
        let expand = |name: &str| -> Vec<String> {
            if names.contains(&name) {
                return vec![name.to_string()];
            }
            match file.implementations.get(name) {
                Some(spec) => spec.variants.keys().map(|v| format!("{name}-{v}")).collect(),
                None => vec![],
            }
        };

        if let Some(b) = &file.baseline
            && !names.contains(&b.as_str())
        {
            return Err(self.err(format!(
                "baseline = \"{b}\": no such implementation (expected one of: {})",
                names.join(", ")
            )));
        }

        let mut overrides = Vec::new();
        for (i, o) in file.overrides.iter().enumerate() {
            let what = format!("override #{}", i + 1);
            if o.when.is_empty() {
                return Err(self.err(format!(
                    "{what}: `when` is empty; name the parameter values it applies to"
                )));
            }
            for (k, v) in &o.when {
                let Some(values) = file.matrix.get(k) else {
                    return Err(self.err(format!("{what}: when.{k}: no matrix parameter named '{k}'")));
                };
                if !values.contains(v) {
                    return Err(self.err(format!("{what}: when.{k} = {v} is not one of matrix.{k}'s values")));
                }
            }
            if let Some(v) = o.vars.keys().find(|v| !file.vars.contains_key(*v)) {
                return Err(self.err(format!("{what}: vars.{v}: declare it with a default in [vars] first")));
            }
            if let Some(s) = o.skip.iter().find(|s| expand(s).is_empty()) {
                return Err(self.err(format!("{what}: skip: no implementation named '{s}'")));
            }
            overrides.push(Override {
                when: o.when.clone(),
                vars: o.vars.clone(),
                runs: o.runs,
                warmup: o.warmup,
                timeout: self.duration(&format!("{what}.timeout"), &o.timeout)?,
                skip: o.skip.iter().flat_map(|s| expand(s)).collect(),
                reason: o.reason.clone(),
            });
        }

        let mut services = Vec::new();
        for (sname, s) in &file.services {
            let what = format!("services.{sname}");
            let none = |_: &str| false;
            let command = self.command(&format!("{what}.command"), &s.command, None, suite_shell, &none)?;
            let probes = [s.ready_tcp.is_some(), s.ready_http.is_some(), s.ready_command.is_some()];
            if probes.iter().filter(|p| **p).count() > 1 {
                return Err(self.err(format!(
                    "{what}: give at most one of ready_tcp, ready_http, ready_command"
                )));
            }
            let ready = if let Some(a) = &s.ready_tcp {
                Readiness::Tcp(a.clone())
            } else if let Some(u) = &s.ready_http {
                if !u.starts_with("http://") {
                    return Err(self.err(format!("{what}.ready_http: only http:// URLs are probed")));
                }
                Readiness::Http(u.clone())
            } else if let Some(c) = &s.ready_command {
                Readiness::Command(self.command(&format!("{what}.ready_command"), c, None, suite_shell, &none)?)
            } else {
                Readiness::Started
            };
            services.push(Service {
                name: sname.clone(),
                command,
                ready,
                ready_timeout: self
                    .duration(&format!("{what}.ready_timeout"), &s.ready_timeout)?
                    .unwrap_or(Duration::from_secs(30)),
                cwd: Some(dir.join(s.cwd.as_deref().unwrap_or("."))),
                env: s.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            });
        }

        let settings = Settings {
            runs: file.settings.runs.unwrap_or(DEFAULT_RUNS),
            warmup: file.settings.warmup.unwrap_or(DEFAULT_WARMUP),
            timeout: self
                .duration("settings.timeout", &file.settings.timeout)?
                .unwrap_or(DEFAULT_TIMEOUT),
            min_sample_time: self
                .duration("settings.min_sample_time", &file.settings.min_sample_time)?
                .unwrap_or(DEFAULT_MIN_SAMPLE_TIME),
        };
        if settings.runs == 0 {
            return Err(self.err("settings.runs must be at least 1"));
        }

        Ok(Suite {
            path: self.path.to_path_buf(),
            dir,
            name: file.name.unwrap_or_else(|| {
                self.path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }),
            description: file.description,
            baseline: file.baseline,
            settings,
            matrix: file.matrix,
            vars: file.vars,
            payload,
            setup,
            teardown,
            operations,
            implementations,
            overrides,
            services,
        })
    }
}

/// The JSON Schema of the suite format, for editors.
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(SuiteFile)).expect("a schema always serializes")
}

#[cfg(test)]
mod tests;
