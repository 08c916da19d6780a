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
        Command::Merge(args) => app::merge(args),
        Command::Diff(args) => app::diff(args),
        Command::Report(args) => app::report(args),
        Command::Schema => app::schema(),
    }
}

fn main() -> ExitCode {
    // The spawn helper (see exec::helper) is this binary with a hidden first
    // argument; it is recognised before any argument parsing so it stays small.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == versus::exec::helper::ARG)
    {
        return match versus::exec::helper::serve() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("versus spawn helper: {e:#}");
                ExitCode::from(versus::exit::ERROR)
            }
        };
    }
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("versus: error: {e:#}");
            ExitCode::from(versus::exit::ERROR)
        }
    }
}
