//! The machine's speed, read between rounds: a short fixed workload timed
//! in versus's own process, so a run records how fast this machine was
//! while it measured, whatever the suite runs. Two runs' readings say
//! whether the machine itself changed between them (a busier host, a
//! slower CPU), which the change judge needs for cells that have no
//! partner to be judged beside (`judge::shared`).
//!
//! The workload is pure integer work on one core (a xorshift loop that
//! touches no memory), about 16 ms in a thread of its own, and is
//! read only while its total stays under `BUDGET` of the run's time. It says how fast this
//! build of versus runs it, so readings compare only under one `WORKLOAD`
//! name, which carries versus's version and build profile.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The share of a run's time the readings may take.
pub(super) const BUDGET: f64 = 0.04;

/// Iterations of one reading: about 16 ms on a 2020s core, several of the
/// scheduler's time slices, so a reading on a CPU shared with a busy
/// neighbour gets its fair share of it rather than finishing inside the
/// first slice it is given (2^20, 1 ms, often did: measured in
/// docs/results/young-history-alone.md, readings of 1.00 while the loops
/// beside them ran at half speed).
const STEPS: u64 = 1 << 24;

/// The workload's identity: readings compare only under the same one.
pub(crate) fn workload() -> String {
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    format!("xorshift-2^24 v2 (versus {} {profile})", env!("CARGO_PKG_VERSION"))
}

/// One reading: the workload's time, in nanoseconds, timed around a thread
/// started for it. A thread that wakes from a wait (versus's, after each
/// run) is let ahead of busy neighbours for its first milliseconds, so a
/// reading taken there would miss what they take; a new thread queues
/// behind them as a new process does (measured: under two busy loops on 2
/// cores, 1.0x on the waking thread, 2.1x on a new one).
pub(crate) fn read() -> u64 {
    let start = Instant::now();
    let worked = std::thread::Builder::new().name("versus-speed".into()).spawn(|| {
        let mut x = black_box(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..STEPS {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        black_box(x)
    });
    if let Ok(handle) = worked {
        let _ = handle.join();
    }
    start.elapsed().as_nanos().max(1) as u64
}

/// Whether another reading fits the budget, `spent` already taken out of
/// `elapsed` of the run: the first always does.
pub(crate) fn affordable(readings: usize, spent: Duration, elapsed: Duration) -> bool {
    readings == 0 || spent.as_secs_f64() <= BUDGET * elapsed.as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_stay_inside_their_budget() {
        assert!(affordable(0, Duration::from_secs(5), Duration::ZERO));
        assert!(!affordable(1, Duration::from_millis(5), Duration::from_millis(100)));
        assert!(affordable(1, Duration::from_millis(4), Duration::from_millis(100)));
        assert!(read() > 0);
        assert!(workload().contains(env!("CARGO_PKG_VERSION")));
    }
}
