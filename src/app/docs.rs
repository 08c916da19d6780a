//! What versus says of itself: the suite file's JSON Schema, shell
//! completions and the man page, all generated from the one definition of
//! each flag (`cli`).

use super::*;
use crate::suite;
use anyhow::Result;
use std::process::ExitCode;

pub fn schema() -> Result<ExitCode> {
    say(&format!("{}\n", serde_json::to_string_pretty(&suite::json_schema())?));
    Ok(ExitCode::from(exit::OK))
}

/// `versus completions SHELL`: generated from the flag definitions in cli.rs.
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    use clap::CommandFactory;
    // Into memory first: the generator panics on a write error, such as a closed pipe.
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut crate::app::cli::Cli::command(), "versus", &mut text);
    say(&String::from_utf8_lossy(&text));
    Ok(ExitCode::from(exit::OK))
}

/// `versus man`: the man page, generated from the flag definitions in cli.rs.
pub fn man() -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut text = Vec::new();
    clap_mangen::Man::new(crate::app::cli::Cli::command()).render(&mut text)?;
    say(&String::from_utf8_lossy(&text));
    Ok(ExitCode::from(exit::OK))
}
