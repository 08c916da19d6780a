//! Implementations measured at several git revisions in one run.
//!
//! The one way to get a true verdict on a noisy machine is to measure the
//! old and the new code in the same run, taking turns, paired: whatever the
//! machine does then hits both sides (Chromium's Pinpoint does this). A
//! suite says how an implementation is built from its repository (`repo`,
//! `build`); `--rev` asks for revisions. The pieces:
//!
//! - `expand`: each such implementation becomes one column per revision,
//!   `<name>@<label>`, as variants do;
//! - `git`, `cache`: each revision checked out in a worktree and built
//!   once, cached by commit, its output in a log;
//! - `prepare`: the builds the plan needs, a failed one making its columns'
//!   cells `failed` (naming the log) rather than stopping the run;
//! - `compare`: the analysis of each column at a later revision against
//!   the same implementation at the first, paired (`judge::compare`).

mod cache;
mod expand;
pub(crate) mod git;
mod prepare;

pub(crate) use expand::{RevArg, column_name, expand, parse_rev};
pub(crate) use prepare::prepare;
