//! `versus bisect`: the first commit where a cell got slower.
//!
//! asv's `asv find` and Chromium's Pinpoint do this for one language; this
//! does it for any suite. Each step measures the commit in the middle of
//! the range beside both ends, in one run, taking turns (`--rev` with three
//! revisions), so its verdicts are paired and the machine's moods hit all
//! three alike. The pieces:
//!
//! - `step`: what one step's verdicts say of its middle commit;
//! - `search`: the bisection along first parents, with skips for commits
//!   that cannot be built and repeats for unclear steps, behind a
//!   `Measure` trait;
//! - `record`: the log of steps and the replayable summary.
//!
//! `app::bisect` measures for real: each step is a run of the suite,
//! recorded in the history store.

mod record;
mod search;
mod step;

pub(crate) use record::{FORMAT, Recorded, Summary, conclusion, step_text};
pub(crate) use search::{Ending, Measure, Measured, Probe, Settings, Step, run as search};
pub(crate) use step::{Attempt, Evidence};

#[cfg(test)]
mod tests;
