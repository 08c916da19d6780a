//! A cell's inputs: the payload (generated, a file, or made by a command,
//! and cached for the run), the folder each cell writes into, and the output
//! of an earlier operation that a chained operation reads.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use super::checks::Failure;
use super::scope::params_scope;
use super::{Events, NoEvents, Runner};
use crate::exec::streams::tail;
use crate::exec::{Executor, Exit, RunRequest};
use crate::outcome::Outcome;
use crate::payload;
use crate::plan::{Group, Params, cell_id, params_key};
use crate::suite::Payload;
use crate::units::{Bytes, parse_size};

/// A resolved payload: where it is and how big.
#[derive(Debug, Clone)]
pub(super) struct PayloadFile {
    pub path: PathBuf,
    pub bytes: Bytes,
}

/// A file or folder name from any text: safe characters kept, others '_'.
pub(super) fn sanitize(s: &str) -> String {
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

impl Runner<'_> {
    /// Checks before anything runs that every payload of the plan can be
    /// resolved (sizes parse, files exist) and that generated ones fit on the
    /// disk, so bad input fails fast.
    pub fn check_payloads(&self) -> Result<()> {
        let Some(p) = &self.suite.payload else { return Ok(()) };
        let mut to_generate: Vec<(u64, Bytes)> = Vec::new();
        for g in &self.plan.groups {
            let scope = params_scope(&g.params, &self.tmp);
            match p {
                Payload::Random { size, seed } => {
                    let text = scope.text(size)?;
                    let bytes = parse_size(&text)
                        .map_err(|e| anyhow!("{}: payload.size = \"{text}\": {e}", self.suite.path.display()))?;
                    if !to_generate.contains(&(*seed, bytes)) && !payload::is_cached(&self.cache, *seed, bytes) {
                        to_generate.push((*seed, bytes));
                    }
                }
                Payload::File(t) => {
                    let path = self.suite.dir.join(scope.text(t)?);
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
        self.check_room(&to_generate)
    }

    /// The payloads to generate must fit in the cache, with room to spare
    /// for the run's outputs: checked before a byte is written.
    fn check_room(&self, to_generate: &[(u64, Bytes)]) -> Result<()> {
        let needed: u64 = to_generate.iter().map(|(_, b)| b.0).sum();
        if needed == 0 {
            return Ok(());
        }
        fs::create_dir_all(&self.cache)
            .with_context(|| format!("cannot create the payload cache {}", self.cache.display()))?;
        let Some(free) = payload::free_space(&self.cache) else {
            return Ok(());
        };
        if needed > free {
            bail!(
                "{}: payload.size: this run would generate {} of payloads in {}, where only {} is free; free space, choose smaller sizes, or set VERSUS_CACHE_DIR to a larger disk",
                self.suite.path.display(),
                crate::units::format_bytes(needed),
                self.cache.display(),
                crate::units::format_bytes(free)
            );
        }
        Ok(())
    }

    pub(super) fn payload(
        &mut self,
        params: &Params,
        events: &mut dyn Events,
        exec: &mut dyn Executor,
    ) -> Result<Option<PayloadFile>> {
        let Some(spec) = &self.suite.payload else {
            return Ok(None);
        };
        let scope = params_scope(params, &self.tmp);
        let key = match spec {
            Payload::Random { size, seed } => format!("random:{seed}:{}", scope.text(size)?),
            Payload::File(t) => format!("file:{}", scope.text(t)?),
            // {out} and {tmp} are the same for every expansion; the parameters tell them apart.
            Payload::Command(c) => format!(
                "command:{}",
                params_scope(params, Path::new("<tmp>"))
                    .with("out", "<out>")
                    .command(c)?
                    .join("\u{1f}")
            ),
        };
        if let Some(p) = self.payloads.get(&key) {
            return Ok(Some(p.clone()));
        }
        let file = match spec {
            Payload::Random { size, seed } => {
                let bytes = parse_size(&scope.text(size)?)?;
                events.note(&format!("generating {} payload", crate::units::format_bytes(bytes.0)));
                let path = payload::cached(&self.cache, *seed, bytes)
                    .with_context(|| format!("cannot write the payload into {}", self.cache.display()))?;
                PayloadFile { path, bytes }
            }
            Payload::File(t) => {
                let path = self.suite.dir.join(scope.text(t)?);
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
                let argv = scope
                    .with("out", path.display().to_string())
                    .command(c)
                    .map_err(|e| anyhow!("payload.command: {e}"))?;
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

    pub(super) fn cell_dir(&self, op: usize, imp: usize, params: &Params) -> PathBuf {
        self.work
            .join(sanitize(&self.suite.operations[op].name))
            .join(sanitize(&self.suite.implementations[imp].name))
            .join(sanitize(&params_key(params)))
    }

    /// The output of operation `op` by implementation `imp` at these
    /// parameters, producing it with one unmeasured run if it is missing
    /// (after `--resume`, or when `--only` left the producer out).
    pub(super) fn ensure_artifact(
        &mut self,
        op: usize,
        imp: usize,
        group: &Group,
        exec: &mut dyn Executor,
        events: &mut dyn Events,
    ) -> Result<PathBuf, Failure> {
        let producer = &self.suite.operations[op];
        if let Some((_, why)) = self.suite.implementations[imp]
            .unsupported
            .iter()
            .find(|(o, _)| *o == op)
        {
            return Err(format!("its input from '{}' is not offered: {why}", producer.name).into());
        }
        let id = cell_id(&producer.name, &self.suite.implementations[imp].name, &group.params);
        if let Some((o, fault)) = self.outcomes.get(&id).filter(|(o, _)| *o != Outcome::Ok) {
            return Err(Failure {
                message: format!(
                    "its input from '{}' is missing: that cell ended {}",
                    producer.name,
                    o.label()
                ),
                fault: *fault,
            });
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
        let cells = self
            .run_group(&sub, None, exec, &mut NoEvents)
            .map_err(|e| Failure::from(e.to_string()))?;
        match cells.first() {
            Some(c) if c.outcome == Outcome::Ok && path.is_file() => Ok(path),
            Some(c) => Err(Failure {
                message: format!(
                    "its input from '{}' could not be produced: {}",
                    producer.name,
                    c.message.clone().unwrap_or_else(|| c.outcome.label().into())
                ),
                fault: c.harness_fault,
            }),
            None => Err(format!("its input from '{}' could not be produced", producer.name).into()),
        }
    }
}
