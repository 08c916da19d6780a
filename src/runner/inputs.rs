//! A cell's inputs: the payload (generated, a file, or made by a command,
//! and cached for the run), the folder each cell writes into, and the output
//! of an earlier operation that a chained operation reads.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use super::failure::Failure;
use super::scope::params_scope;
use super::{Events, NoEvents, Runner};
use crate::base::folder;
use crate::base::outcome::Outcome;
use crate::base::params::Params;
use crate::base::params::params_key;
use crate::base::placeholder::CommandTemplate;
use crate::base::units::{Bytes, parse_size};
use crate::exec::tail;
use crate::exec::{Executor, Exit, RunRequest};
use crate::payload;
use crate::plan::{Group, cell_id};
use crate::suite::Payload;

/// A resolved payload: where it is and how big.
#[derive(Debug, Clone)]
pub(super) struct PayloadFile {
    pub path: PathBuf,
    pub bytes: Bytes,
}

impl Runner<'_> {
    /// Checks before anything runs that every payload of the plan can be
    /// resolved (sizes parse, files exist) and that generated ones fit on the
    /// disk, so bad input fails fast.
    pub(crate) fn check_payloads(&self) -> Result<()> {
        let Some(p) = &self.suite.payload else { return Ok(()) };
        crate::base::private::trusted(&self.cache)?;
        let mut to_generate: Vec<(u64, Bytes)> = Vec::new();
        for g in &self.plan.groups {
            let scope = params_scope(&g.values, &self.tmp);
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
        let Some(free) = payload::free_space(&self.cache) else {
            return Ok(());
        };
        if needed > free {
            bail!(
                "{}: payload.size: this run would generate {} of payloads in {}, where only {} is free; free space, choose smaller sizes, or set VERSUS_CACHE_DIR to a larger disk",
                self.suite.path.display(),
                crate::base::units::format_bytes(needed),
                self.cache.display(),
                crate::base::units::format_bytes(free)
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
                events.note(&format!(
                    "generating {} payload",
                    crate::base::units::format_bytes(bytes.0)
                ));
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
            Payload::Command(c) => self.command_payload(c, params, &key, events, exec)?,
        };
        self.payloads.insert(key, file.clone());
        Ok(Some(file))
    }

    /// A payload a command writes to `{out}`: cached across runs in
    /// `<cache>/commands/`, by the command as rendered for these parameters
    /// and the size and modification time of every file it names (the
    /// generator script, its program), so an edited generator runs again. A
    /// command that uses `{tmp}` reads what this run's setup made there, so
    /// its payload is made afresh in the run's folder instead.
    fn command_payload(
        &mut self,
        c: &CommandTemplate,
        params: &Params,
        key: &str,
        events: &mut dyn Events,
        exec: &mut dyn Executor,
    ) -> Result<PayloadFile> {
        let scope = params_scope(params, &self.tmp);
        let per_run = c.names().contains(&"tmp");
        let (dir, path) = if per_run {
            let dir = self.work.join("payloads");
            let path = dir.join(folder::for_name(&params_key(params)));
            (dir, path)
        } else {
            let dir = self.cache.join("commands");
            let probe = scope.clone().with("out", "<out>").command(c)?;
            let stamp = self.command_stamp(&probe, key);
            let path = dir.join(format!("{}.out", crate::base::digest::sha256_hex(stamp.as_bytes())));
            (dir, path)
        };
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        if !per_run && path.is_file() {
            let bytes = Bytes(fs::metadata(&path)?.len());
            return Ok(PayloadFile { path, bytes });
        }
        let partial = dir.join(format!(".partial-{}", std::process::id()));
        let argv = scope
            .with("out", partial.display().to_string())
            .command(c)
            .map_err(|e| anyhow!("payload.command: {e}"))?;
        events.note(&format!("generating payload with `{}`", argv.join(" ")));
        // Named for this process: two runs may share the cache folder.
        let stderr = dir.join(format!(".generator-{}.stderr", std::process::id()));
        let r = exec.run(&RunRequest {
            argv: argv.clone(),
            cwd: Some(self.suite.dir.clone()),
            stderr: Some(stderr.clone()),
            timeout: self.suite.settings.timeout,
            ..Default::default()
        });
        let said = tail(&stderr, 2000);
        let _ = fs::remove_file(&stderr);
        if r.exit != Exit::Code(0) || !partial.is_file() {
            let _ = fs::remove_file(&partial);
            bail!(
                "{}: payload.command `{}` did not produce its {{out}} file ({:?}): {}",
                self.suite.path.display(),
                argv.join(" "),
                r.exit,
                said
            );
        }
        // Renamed into place whole, so an interrupted generator never leaves a short payload.
        fs::rename(&partial, &path).with_context(|| format!("cannot move the payload to {}", path.display()))?;
        move_companions(&partial, &path)?;
        let bytes = Bytes(fs::metadata(&path)?.len());
        Ok(PayloadFile { path, bytes })
    }

    /// What a generated payload depends on: the command as rendered (with
    /// `{out}` left as a mark), the folder it runs in, and the size and
    /// modification time of each file it names (its program found on PATH).
    fn command_stamp(&self, argv: &[String], key: &str) -> String {
        use std::os::unix::fs::MetadataExt;
        let mut stamp = format!("{key}\u{1f}{}", self.suite.dir.display());
        for (i, word) in argv.iter().enumerate() {
            let on_path = (i == 0 && !word.contains('/'))
                .then(|| {
                    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                        .map(|d| d.join(word))
                        .find(|p| p.is_file())
                })
                .flatten();
            let file = on_path.unwrap_or_else(|| self.suite.dir.join(word));
            if let Some(m) = fs::metadata(&file).ok().filter(|m| m.is_file()) {
                stamp.push_str(&format!(
                    "\u{1f}{}:{}:{}.{}",
                    file.display(),
                    m.len(),
                    m.mtime(),
                    m.mtime_nsec()
                ));
            }
        }
        stamp
    }

    pub(super) fn cell_dir(&self, op: usize, imp: usize, params: &Params) -> PathBuf {
        self.work
            .join(folder::for_name(&self.suite.operations[op].name))
            .join(folder::for_name(&self.suite.implementations[imp].name))
            .join(folder::for_name(&params_key(params)))
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

/// Files a payload command wrote beside `{out}`, named `{out}` and a
/// suffix (a TDF of the payload at `{out}.go-sdk.tdf`, say), moved with it
/// from the temporary name to the payload's, so `{in}.SUFFIX` finds them.
fn move_companions(partial: &Path, path: &Path) -> Result<()> {
    let (Some(dir), Some(stem)) = (partial.parent(), partial.file_name().and_then(|n| n.to_str())) else {
        return Ok(());
    };
    for entry in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let from = entry?.path();
        let Some(suffix) = from
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix(stem))
            .filter(|s| s.starts_with('.'))
        else {
            continue;
        };
        let mut to = path.as_os_str().to_owned();
        to.push(suffix);
        fs::rename(&from, &to).with_context(|| format!("cannot move {} beside the payload", from.display()))?;
    }
    Ok(())
}
