//! The suite behind `versus exec`: one operation, `exec`, an implementation
//! per command, and hyperfine's flags as suite settings (`-L`/`-P` as the
//! matrix, `--prepare` and friends as hooks, `--input` as the payload fed
//! to standard input). It is written as a suite file would be (`SuiteFile`)
//! and validated by the same code, so it cannot drift from what a TOML
//! suite means.
//!
//! Commands are text as in hyperfine: only `{VAR}` of a parameter is a
//! placeholder, every other brace is literal. Without a shell, text a shell
//! would interpret is refused rather than passed on as arguments.

use std::path::Path;

use anyhow::{Result, bail};
use indexmap::IndexMap;

use crate::app::cli::ExecArgs;
use crate::base::params::ParamValue;
use crate::base::placeholder::CommandTemplate;
use crate::session::{literal_program, program_exists};
use crate::suite::shell_syntax;
use crate::suite::{self, Suite, SuiteFile};
use crate::suite::{ImplementationSpec, OperationSpec, OutputMode, PayloadSpec};

/// Builds the suite for `versus exec`'s commands and checks their programs exist.
pub(super) fn suite(args: &ExecArgs) -> Result<Suite> {
    if !args.name.is_empty() && args.name.len() != args.commands.len() {
        bail!(
            "-n/--name: give one name per command ({} names for {} commands)",
            args.name.len(),
            args.commands.len()
        );
    }
    let (commands, names) = with_reference(args);
    let matrix = crate::suite::hyperfine_matrix(
        &args.parameter_list,
        &args.parameter_scan,
        args.parameter_step_size.as_deref(),
    )?;
    let shell = shell(args.shell.as_deref())?;
    let revisioned = !args.revisions.rev.is_empty();
    let text = Text {
        shell: shell.as_deref(),
        params: &matrix,
        build_placeholders: revisioned,
    };
    for (flag, cmds) in [("--prepare", &args.prepare), ("--conclude", &args.conclude)] {
        if cmds.len() > 1 && cmds.len() != commands.len() {
            bail!(
                "{flag}: give it once for all commands, or once per command, the --reference first ({} for {} commands)",
                cmds.len(),
                commands.len()
            );
        }
    }
    let mut implementations = IndexMap::new();
    for (i, cmd) in commands.iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| cmd.clone());
        if implementations.contains_key(&name) {
            bail!(
                "command {}: the name '{name}' is used twice; give distinct names with -n",
                i + 1
            );
        }
        let run = text.command(&format!("command {}", i + 1), cmd)?;
        let hook = |flag: &str, cmds: &[String]| -> Result<Vec<String>> {
            let one = if cmds.len() > 1 { cmds.get(i) } else { cmds.first() };
            one.map(|c| text.command(flag, c)).into_iter().collect()
        };
        let mut spec = ImplementationSpec {
            shell: Some(false),
            prepare: hook("--prepare", &args.prepare)?,
            conclude: hook("--conclude", &args.conclude)?,
            cell_setup: hook("--setup", args.setup.as_slice())?,
            cell_teardown: hook("--cleanup", args.cleanup.as_slice())?,
            ..Default::default()
        };
        spec.run.insert("exec".to_string(), toml::Spanned::new(0..0, run));
        // `--rev`: every command but the reference is built at each revision.
        if revisioned && !(args.reference.is_some() && i == 0) {
            spec.repo = Some(args.repo.as_deref().unwrap_or(Path::new(".")).display().to_string());
            spec.build = args.build.as_deref().map(|b| text.command("--build", b)).transpose()?;
        }
        implementations.insert(name, spec);
    }
    if let Some(b) = &args.baseline
        && !implementations.contains_key(b)
    {
        bail!("--baseline {b}: no command has this name (name commands with -n)");
    }
    let baseline = match &args.reference {
        Some(r) => Some(args.reference_name.clone().unwrap_or_else(|| r.clone())),
        None => args.baseline.clone(),
    };
    let file = SuiteFile {
        name: Some("versus exec".into()),
        baseline,
        matrix: matrix.into_iter().map(|(k, v)| (k, v.into())).collect(),
        payload: payload(args)?,
        operations: IndexMap::from([("exec".to_string(), operation(args)?)]),
        implementations,
        ..Default::default()
    };
    Ok(suite::from_file(Path::new(""), file)?)
}

/// The commands and their names with hyperfine's `--reference` first: it
/// counts as the first command for per-command `--prepare`/`--conclude`, and
/// `-n` names only the others. Names are empty when none were given.
fn with_reference(args: &ExecArgs) -> (Vec<String>, Vec<String>) {
    let Some(reference) = &args.reference else {
        return (args.commands.clone(), args.name.clone());
    };
    let commands = std::iter::once(reference.clone()).chain(args.commands.iter().cloned());
    let reference_name = args.reference_name.clone().unwrap_or_else(|| reference.clone());
    let names = match args.name.is_empty() {
        true => args.commands.clone(),
        false => args.name.clone(),
    };
    (
        commands.collect(),
        std::iter::once(reference_name).chain(names).collect(),
    )
}

/// `--input`: the payload, fed to standard input.
fn payload(args: &ExecArgs) -> Result<Option<PayloadSpec>> {
    let Some(input) = &args.input else { return Ok(None) };
    if !input.is_file() {
        bail!("--input {}: no such file", input.display());
    }
    Ok(Some(PayloadSpec {
        size: None,
        seed: None,
        file: Some(input.display().to_string()),
        command: None,
    }))
}

/// The one operation: where its output goes, and whether exit statuses matter.
fn operation(args: &ExecArgs) -> Result<OperationSpec> {
    let (output, stdout_file) = match args.output.as_deref() {
        _ if args.show_output => (OutputMode::Inherit, None),
        None | Some("null") => (OutputMode::None, None),
        Some("pipe") => (OutputMode::Stdout, None),
        Some("inherit") => (OutputMode::Inherit, None),
        Some("") => bail!("--output: expected null, pipe, inherit or a file name"),
        Some(file) => (OutputMode::Stdout, Some(file.to_string())),
    };
    Ok(OperationSpec {
        output: Some(output),
        stdout_file,
        stdin: args.input.is_some(),
        throughput: args.input.is_some().then(|| "none".to_string()),
        ignore_failure: args.ignore_failure,
        ..Default::default()
    })
}

/// `--shell`: the shell's words (`None`: no shell).
fn shell(flag: Option<&str>) -> Result<Option<Vec<String>>> {
    match flag.map(str::trim) {
        None | Some("none") => Ok(None),
        Some("default") => Ok(Some(vec!["sh".into()])),
        Some(s) => match shell_words::split(s) {
            Ok(words) if !words.is_empty() => Ok(Some(words)),
            _ => bail!("--shell {s}: expected a shell such as bash, or \"bash --norc\""),
        },
    }
}

/// How exec's command text becomes a suite command.
struct Text<'a> {
    shell: Option<&'a [String]>,
    params: &'a IndexMap<String, Vec<ParamValue>>,
    /// With `--rev`: `{checkout}` and `{rev}` are placeholders too.
    build_placeholders: bool,
}

impl Text<'_> {
    /// The suite command for one text: literal braces escaped, wrapped in the
    /// shell if there is one (values are substituted into the shell's text
    /// unquoted, as hyperfine does), checked.
    fn command(&self, what: &str, text: &str) -> Result<String> {
        let escaped = escape_braces(text, self.params, self.build_placeholders);
        let out = match self.shell {
            Some(shell) => {
                let mut words = shell.to_vec();
                words.extend(["-c".to_string(), escaped]);
                shell_words::join(words)
            }
            None => {
                if let Some(syntax) = shell_syntax(text) {
                    bail!(
                        "{what} (`{text}`): `{syntax}` is shell syntax, but versus runs commands without a shell; \
add --shell=sh (or -S bash) to run it through one, or quote it to pass it as an argument"
                    );
                }
                escaped
            }
        };
        let cmd = CommandTemplate::parse(&out, false).map_err(|e| anyhow::anyhow!("{what} (`{text}`): {e}"))?;
        if let Some(prog) = literal_program(&cmd)
            && !program_exists(&prog, Path::new("."), &[])
        {
            bail!("{what} (`{text}`): program '{prog}' not found");
        }
        Ok(out)
    }
}

/// Every brace doubled (literal) except those of `{VAR}` for a parameter
/// (and, with `build`, of `{checkout}` and `{rev}`).
fn escape_braces(text: &str, params: &IndexMap<String, Vec<ParamValue>>, build: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let param = (c == '{')
            .then(|| rest[1..].find('}').map(|end| &rest[1..=end]))
            .flatten()
            .filter(|name| params.contains_key(*name) || (build && suite::BUILD_PLACEHOLDERS.contains(name)));
        if let Some(name) = param {
            out.push_str(&format!("{{{name}}}"));
            rest = &rest[name.len() + 2..];
            continue;
        }
        match c {
            '{' => out.push_str("{{"),
            '}' => out.push_str("}}"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_parameter_braces_stay_placeholders() {
        let params = IndexMap::from([("n".to_string(), vec![ParamValue::Int(1)])]);
        assert_eq!(
            escape_braces("awk '{print}' {n} {m} {checkout}", &params, false),
            "awk '{{print}}' {n} {{m}} {{checkout}}"
        );
        assert_eq!(escape_braces("x{", &params, false), "x{{");
        assert_eq!(escape_braces("{checkout}/p {rev}", &params, true), "{checkout}/p {rev}");
    }
}
