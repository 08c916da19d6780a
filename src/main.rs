//! versus: benchmark several implementations of the same job against each other.

use std::process::ExitCode;

use clap::Parser;
use versus::app;
use versus::app::cli::{Cli, Command};
use versus::app::exit;
use versus::exec::{guard, helper, interrupt};

fn run() -> anyhow::Result<ExitCode> {
    match Cli::parse().command {
        Command::Run(args) => app::run_suite(*args),
        Command::Exec(args) => app::exec(*args),
        Command::Conformance(args) => app::conformance(args),
        Command::Merge(args) => app::merge(args),
        Command::Diff(args) => app::diff(args),
        Command::Report(args) => app::report(args),
        Command::Import(args) => app::import(args),
        Command::History(args) => app::history(args),
        Command::Trend(args) => app::trend(args),
        Command::Site(args) => app::site(args),
        Command::Bisect(args) => app::bisect(*args),
        Command::Schema => app::schema(),
        Command::Completions { shell } => app::completions(shell),
        Command::Man => app::man(),
    }
}

fn main() -> ExitCode {
    // The spawn helper and the orphan guard (see exec::helper, exec::guard)
    // are this binary with a hidden first argument; they are recognised
    // before any argument parsing so they stay small.
    let mut args = std::env::args_os().skip(1);
    match args.next() {
        Some(a) if a == helper::ARG => {
            return match helper::serve() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("versus spawn helper: {e:#}");
                    ExitCode::from(exit::ERROR)
                }
            };
        }
        Some(a) if a == guard::ARG => {
            guard::serve(&args.next().unwrap_or_default().to_string_lossy());
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    guard::mark_self();
    // Ctrl-C, TERM and HUP: a request while a session measures, the end at
    // once at any other time (exec::interrupt).
    interrupt::install();
    interrupt::finishing("interrupted");
    // Large buffers (a cell's samples, their sorted copies in the analysis)
    // go back to the system when freed, instead of staying in the heap as
    // glibc's adaptive threshold would keep them: versus's peak memory is
    // then what it holds at once, not what it ever held.
    // SAFETY: mallopt only sets an allocator parameter; called before threads start.
    unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024) };
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("versus: error: {}", versus::base::sink::terminal(&format!("{e:#}")));
            ExitCode::from(exit::ERROR)
        }
    }
}
