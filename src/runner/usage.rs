//! The background services' share of each cell: around every run (or
//! in-process batch) the meter reads each service's CPU time and peak
//! memory, and the cell adds them up — CPU over its measured runs, divided
//! by their calls in reports; peak memory over all its runs. Runs of the
//! cells of a group take turns, so each run's use is charged to the cell
//! whose run it was.

use super::state::CellState;
use crate::exec::{Reading, UsageMeter};
use crate::results::ServiceUsage;

/// Reads what the services used over one run. A trait so the runner's
/// tests can give fixed readings.
pub(crate) trait ServiceMeter {
    /// The services' names, in the order readings come.
    fn names(&self) -> Vec<String>;
    /// Looks up the services' processes again (once per group).
    fn refresh(&mut self);
    fn begin(&mut self);
    /// One reading per service since `begin`.
    fn end(&mut self) -> Vec<Reading>;
}

impl ServiceMeter for UsageMeter {
    fn names(&self) -> Vec<String> {
        UsageMeter::names(self)
    }
    fn refresh(&mut self) {
        UsageMeter::refresh(self);
    }
    fn begin(&mut self) {
        UsageMeter::begin(self);
    }
    fn end(&mut self) -> Vec<Reading> {
        UsageMeter::end(self)
    }
}

/// Adds one run's readings to the cell: `calls` is 0 for a warm-up run
/// (its CPU is not counted) and the run's calls for a measured one. The
/// services' names are asked for once per cell, not per run.
pub(super) fn charge(st: &mut CellState, meter: &dyn ServiceMeter, readings: &[Reading], calls: u64) {
    if st.services.is_empty() {
        st.services = meter
            .names()
            .into_iter()
            .map(|name| ServiceUsage {
                name,
                ..Default::default()
            })
            .collect();
    }
    for (usage, r) in st.services.iter_mut().zip(readings) {
        if calls > 0 {
            usage.cpu_ns += r.cpu_ns;
            usage.calls += calls;
        }
        usage.peak_rss_bytes = match (usage.peak_rss_bytes, r.peak_rss_bytes) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
}
