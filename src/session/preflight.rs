//! Checks made before anything runs, so that a typo fails in a second with
//! a message naming the suite key, and not after an hour of measuring.

use std::path::Path;

use anyhow::{Result, bail};

use crate::base::placeholder::CommandTemplate;
use crate::suite::Suite;

/// Finds a program the way exec would: a path with a slash relative to `cwd`, else on PATH.
pub(crate) fn program_exists(program: &str, cwd: &Path, env: &[(String, String)]) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| p.is_file() && p.metadata().is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        return executable(&cwd.join(program));
    }
    let path = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var("PATH").ok())
        .unwrap_or_default();
    std::env::split_paths(&path).any(|d| executable(&d.join(program)))
}

/// The program a command starts, when it is written literally (no
/// placeholder in its first word, no shell).
pub(crate) fn literal_program(cmd: &CommandTemplate) -> Option<String> {
    match cmd {
        CommandTemplate::Words(words) if words[0].names().next().is_none() => Some(words[0].to_string()),
        _ => None,
    }
}

/// Every command whose program is written literally must exist before
/// anything runs. All that are missing are named at once, so one pass of
/// installing fixes them all.
pub(crate) fn check_programs(suite: &Suite) -> Result<()> {
    let mut missing: Vec<String> = Vec::new();
    for imp in &suite.implementations {
        let cwd = imp.cwd.clone().unwrap_or_else(|| suite.dir.clone());
        if !cwd.is_dir() {
            missing.push(format!(
                "implementations.{}.cwd: {} is not a directory",
                imp.name,
                cwd.display()
            ));
            continue;
        }
        let worker = imp.worker.iter().map(|w| ("worker".to_string(), w));
        let commands = suite
            .operations
            .iter()
            .zip(&imp.commands)
            .filter_map(|(op, c)| Some((format!("run.{}", op.name), c.as_ref()?)));
        for (key, cmd) in commands.chain(worker) {
            let Some(first) = literal_program(cmd) else { continue };
            if !program_exists(&first, &cwd, &imp.env) {
                missing.push(format!(
                    "implementations.{}.{key}: program '{first}' not found ({})",
                    imp.name,
                    if first.contains('/') {
                        format!("relative to {}", cwd.display())
                    } else {
                        "not on PATH".into()
                    }
                ));
            }
        }
    }
    match missing.as_slice() {
        [] => Ok(()),
        [one] => bail!("{}: {one}; install it or fix the command", suite.path.display()),
        many => bail!(
            "{}: {} programs are missing; install them or fix the commands:\n  {}",
            suite.path.display(),
            many.len(),
            many.join("\n  ")
        ),
    }
}

/// `--baseline NAME` must name an implementation of the suite.
pub(crate) fn check_baseline(suite: &Suite, baseline: &str) -> Result<()> {
    if suite.implementations.iter().any(|i| i.name == baseline) {
        return Ok(());
    }
    let names: Vec<&str> = suite.implementations.iter().map(|i| i.name.as_str()).collect();
    bail!(
        "--baseline {baseline}: no such implementation (expected one of: {})",
        names.join(", ")
    )
}
