//! The progress line's ETA, from time measured so far rather than from a
//! count of runs: runs differ by orders of magnitude between groups (1 KB
//! against 100 MB), so "8 of 16 runs" says little about the time left. The
//! runs left in the current group are projected at that group's own time per
//! run; the groups after it at the time per run over everything so far. Pure:
//! the caller passes the clock's reading, so tests use a fake clock.

use std::time::Duration;

/// What the estimator has seen, in elapsed time since the run started.
#[derive(Debug, Default, Clone)]
pub struct Eta {
    /// Runs of the whole plan not yet taken (the current group's included).
    left: u64,
    /// Runs of the current group not yet taken.
    group_left: u64,
    /// When the current group started, and runs it has finished.
    group_started: Duration,
    group_done: u64,
    /// When the last run finished (or the group started).
    last_event: Duration,
    /// Time spent in finished runs of earlier groups, and how many.
    earlier: Duration,
    earlier_done: u64,
}

impl Eta {
    /// A plan of `runs` runs.
    pub fn new(runs: u64) -> Self {
        Eta {
            left: runs,
            ..Eta::default()
        }
    }

    /// A group of `runs` planned runs starts at `now`.
    pub fn group_start(&mut self, now: Duration, runs: u64) {
        if self.group_done > 0 {
            // The whole group, its checks and teardown after the last run included.
            self.earlier += now.saturating_sub(self.group_started);
            self.earlier_done += self.group_done;
        }
        self.group_started = now;
        self.last_event = now;
        self.group_done = 0;
        self.group_left = runs.min(self.left);
    }

    /// One run finished at `now`.
    pub fn run_done(&mut self, now: Duration) {
        self.last_event = now;
        self.group_done += 1;
        self.group_left = self.group_left.saturating_sub(1);
        self.left = self.left.saturating_sub(1);
    }

    /// Planned runs that will not be taken (a cell failed or was resumed).
    pub fn dropped(&mut self, runs: u64) {
        self.group_left = self.group_left.saturating_sub(runs);
        self.left = self.left.saturating_sub(runs);
    }

    /// Runs beyond the plan (adaptive sampling), in the current group.
    pub fn added(&mut self, runs: u64) {
        self.group_left += runs;
        self.left += runs;
    }

    /// The time left at `now`, or `None` before the first run has finished
    /// (nothing measured yet to project from). Between runs it counts down,
    /// by at most one run's time, so the line does not freeze during a long run.
    pub fn remaining(&self, now: Duration) -> Option<Duration> {
        let group_time = self.last_event.saturating_sub(self.group_started);
        let done = self.earlier_done + self.group_done;
        if done == 0 {
            return None;
        }
        let overall = (self.earlier + group_time).as_secs_f64() / done as f64;
        let this_group = if self.group_done > 0 {
            group_time.as_secs_f64() / self.group_done as f64
        } else {
            overall
        };
        let later = self.left.saturating_sub(self.group_left);
        let projected = self.group_left as f64 * this_group + later as f64 * overall;
        let running = now.saturating_sub(self.last_event).as_secs_f64().min(this_group);
        Some(Duration::from_secs_f64((projected - running).max(0.0)))
    }
}

/// A duration as the progress line shows it: "45s", "3m 20s", "1h 05m".
pub fn short(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn projects_measured_time_not_a_run_count() {
        // Two groups of 4 runs: the first takes 0.5 s a run.
        let mut eta = Eta::new(8);
        assert_eq!(eta.remaining(secs(0.0)), None, "nothing measured yet");
        eta.group_start(secs(0.0), 4);
        eta.run_done(secs(0.5));
        eta.run_done(secs(1.0));
        // 2 runs left here at 0.5 s, 4 in the next group at the mean 0.5 s.
        assert_eq!(eta.remaining(secs(1.0)), Some(secs(3.0)));
        eta.run_done(secs(1.5));
        eta.run_done(secs(2.0));
        // The second group is slower: 2 s a run; its rate takes over for its own runs.
        eta.group_start(secs(2.0), 4);
        assert_eq!(eta.remaining(secs(2.0)), Some(secs(2.0)));
        eta.run_done(secs(4.0));
        assert_eq!(eta.remaining(secs(4.0)), Some(secs(6.0)));
        eta.run_done(secs(6.0));
        eta.run_done(secs(8.0));
        eta.run_done(secs(10.0));
        assert_eq!(eta.remaining(secs(10.0)), Some(secs(0.0)));
    }

    #[test]
    fn counts_down_during_a_run() {
        // 14 runs at 1 s each: after the first, 13 s; half-way through the
        // second, 12.5 s; a run that overruns stops the count at 12 s.
        let mut eta = Eta::new(14);
        eta.group_start(secs(0.0), 14);
        eta.run_done(secs(1.0));
        assert_eq!(eta.remaining(secs(1.0)), Some(secs(13.0)));
        assert_eq!(eta.remaining(secs(1.5)), Some(secs(12.5)));
        assert_eq!(eta.remaining(secs(9.0)), Some(secs(12.0)));
    }

    #[test]
    fn dropped_and_added_runs_change_what_is_left() {
        let mut eta = Eta::new(10);
        eta.group_start(secs(0.0), 10);
        eta.run_done(secs(1.0));
        eta.dropped(4);
        assert_eq!(eta.remaining(secs(1.0)), Some(secs(5.0)));
        eta.added(2);
        assert_eq!(eta.remaining(secs(1.0)), Some(secs(7.0)));
    }

    #[test]
    fn durations_read_short() {
        assert_eq!(short(secs(14.2)), "14s");
        assert_eq!(short(secs(200.0)), "3m 20s");
        assert_eq!(short(secs(3900.0)), "1h 05m");
    }
}
