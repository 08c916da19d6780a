//! The suite behind `versus exec`: one operation, `exec`, no payload, an
//! implementation per command. It is written as a suite file would be
//! (`SuiteFile`) and validated by the same code, so it cannot drift from
//! what a TOML suite means.

use std::path::Path;

use anyhow::{Context, Result, bail};
use indexmap::IndexMap;

use crate::cli::ExecArgs;
use crate::placeholder::CommandTemplate;
use crate::session::preflight::{literal_program, program_exists};
use crate::suite::model::{ImplementationSpec, OperationSpec, OutputMode};
use crate::suite::{self, Suite, SuiteFile};

/// Builds the suite for `versus exec`'s commands and checks their programs exist.
pub fn suite(args: &ExecArgs) -> Result<Suite> {
    if !args.name.is_empty() && args.name.len() != args.commands.len() {
        bail!(
            "-n/--name: give one name per command ({} names for {} commands)",
            args.name.len(),
            args.commands.len()
        );
    }
    let mut implementations = IndexMap::new();
    for (i, text) in args.commands.iter().enumerate() {
        let name = args.name.get(i).cloned().unwrap_or_else(|| text.clone());
        if implementations.contains_key(&name) {
            bail!(
                "command {}: the name '{name}' is used twice; give distinct names with -n",
                i + 1
            );
        }
        check_command(i, text, args.shell)?;
        let mut run = IndexMap::new();
        run.insert("exec".to_string(), toml::Spanned::new(0..0, text.clone()));
        implementations.insert(
            name,
            ImplementationSpec {
                run,
                shell: Some(args.shell),
                ..Default::default()
            },
        );
    }
    if let Some(b) = &args.baseline
        && !implementations.contains_key(b)
    {
        bail!("--baseline {b}: no command has this name (name commands with -n)");
    }
    let mut operations = IndexMap::new();
    operations.insert(
        "exec".to_string(),
        OperationSpec {
            output: Some(OutputMode::None),
            ..Default::default()
        },
    );
    let file = SuiteFile {
        name: Some("versus exec".into()),
        baseline: args.baseline.clone(),
        operations,
        implementations,
        ..Default::default()
    };
    Ok(suite::from_file(Path::new(""), file)?)
}

/// A command must parse, use no placeholder, and start a program that exists.
fn check_command(i: usize, text: &str, shell: bool) -> Result<()> {
    let cmd = CommandTemplate::parse(text, shell).with_context(|| format!("command {} (`{text}`)", i + 1))?;
    if let Some(n) = cmd.names().first() {
        bail!(
            "command {} (`{text}`): placeholders such as {{{n}}} need a suite file (versus run)",
            i + 1
        );
    }
    if let Some(prog) = literal_program(&cmd)
        && !program_exists(&prog, Path::new("."), &[])
    {
        bail!(
            "command {} (`{text}`): program '{prog}' not found; use --shell for shell syntax",
            i + 1
        );
    }
    Ok(())
}
