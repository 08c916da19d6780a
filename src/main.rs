//! versus: benchmark several implementations of the same job against each other.

use std::process::ExitCode;

use clap::Parser;
use versus::app;
use versus::cli::{Cli, Command};

fn run() -> anyhow::Result<ExitCode> {
    match Cli::parse().command {
        Command::Run(args) => app::run_suite(args),
        Command::Exec(args) => app::exec(args),
        Command::Conformance(args) => app::conformance(args),
        Command::Diff(args) => app::diff(args),
        Command::Report(args) => app::report(args),
        Command::Schema => app::schema(),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("versus: error: {e:#}");
            ExitCode::from(app::EXIT_ERROR)
        }
    }
}
