//! Progress on stderr while the plan runs: a bar with an ETA on a terminal,
//! a line per finished group where stderr is a log (CI), nothing with `-q`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::report::formats::eta::{self, Eta};
use crate::runner::Events;

/// Progress on stderr: a bar on a terminal; where stderr is not one (a CI
/// log), one line per finished group, as hyperfine prints each result as it
/// finishes. Nothing with `quiet`.
pub struct Progress {
    bar: ProgressBar,
    /// The group being measured, shown again once a note (such as generating a payload) is over.
    group: String,
    eta: Arc<Mutex<Eta>>,
    started: Instant,
    /// Lines for a log: stderr is not a terminal and not `quiet`.
    log: bool,
    /// Groups finished, and runs done in the group being measured.
    groups_done: u64,
    group_runs: u64,
}

impl Progress {
    pub fn new(quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        if quiet {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        let eta = Arc::new(Mutex::new(Eta::new(0)));
        let started = Instant::now();
        let reader = Arc::clone(&eta);
        bar.set_style(
            // `wide_msg` takes the rest of the line and is cut to the terminal's width.
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:20} {pos}/{len} runs, ETA {time_left} {wide_msg}",
            )
            .expect("valid template")
            .with_key("time_left", move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let left = reader.lock().ok().and_then(|e| e.remaining(started.elapsed()));
                let _ = w.write_str(&left.map_or_else(|| "…".to_string(), eta::short));
            }),
        );
        if !quiet {
            // Redraw between runs too, so elapsed time and ETA move during a long run.
            bar.enable_steady_tick(Duration::from_millis(500));
        }
        Progress {
            bar,
            group: String::new(),
            eta,
            started,
            log: !quiet && !std::io::IsTerminal::is_terminal(&std::io::stderr()),
            groups_done: 0,
            group_runs: 0,
        }
    }

    pub fn finish(&mut self) {
        self.group_done();
        self.bar.finish_and_clear();
    }

    /// The log line of the group just measured, if it ran anything.
    fn group_done(&mut self) {
        if !self.log || self.group.is_empty() || self.group_runs == 0 {
            return;
        }
        self.groups_done += 1;
        eprintln!(
            "{}",
            log_line(self.started.elapsed(), self.groups_done, &self.group, self.group_runs)
        );
        self.group_runs = 0;
    }

    fn with_eta(&self, f: impl FnOnce(&mut Eta, Duration)) {
        if let Ok(mut e) = self.eta.lock() {
            f(&mut e, self.started.elapsed());
        }
    }
}

impl Events for Progress {
    fn start(&mut self, total_runs: u64) {
        self.bar.set_length(total_runs);
        self.with_eta(|e, _| *e = Eta::new(total_runs));
    }
    fn group_start(&mut self, label: &str) {
        self.group_done();
        self.group = crate::base::sink::terminal(label).into_owned();
        self.bar.set_message(crate::base::sink::terminal(label).into_owned());
    }
    fn group_planned(&mut self, runs: u64) {
        self.with_eta(|e, now| e.group_start(now, runs));
    }
    fn run_done(&mut self) {
        if self.bar.message() != self.group {
            self.bar.set_message(self.group.clone());
        }
        self.with_eta(|e, now| e.run_done(now));
        self.bar.inc(1);
        self.group_runs += 1;
    }
    fn runs_dropped(&mut self, count: u64) {
        let len = self.bar.length().unwrap_or(0);
        self.bar.set_length(len.saturating_sub(count));
        self.with_eta(|e, _| e.dropped(count));
    }
    fn runs_added(&mut self, count: u64) {
        let len = self.bar.length().unwrap_or(0);
        self.bar.set_length(len + count);
        self.with_eta(|e, _| e.added(count));
    }
    fn note(&mut self, text: &str) {
        self.bar.set_message(crate::base::sink::terminal(text).into_owned());
    }
    /// Said only where the analysis takes a while (a second or so from a
    /// hundred thousand runs or a thousand cells on), so a wait after the
    /// last run is explained.
    fn analysing(&mut self, cells: usize, runs: usize) {
        self.group_done();
        self.group.clear();
        if runs < 100_000 && cells < 1_000 {
            return;
        }
        let what = format!("analysing {runs} runs of {cells} cells");
        if self.log {
            let s = self.started.elapsed().as_secs();
            eprintln!("versus [{:02}:{:02}:{:02}] {what}", s / 3600, s / 60 % 60, s % 60);
        } else {
            self.bar.set_message(what);
        }
    }
}

/// "versus [00:03:12] group 7 done: encrypt size=1MiB (60 runs)".
fn log_line(elapsed: Duration, done: u64, group: &str, runs: u64) -> String {
    let s = elapsed.as_secs();
    format!(
        "versus [{:02}:{:02}:{:02}] group {done} done: {group} ({runs} run{})",
        s / 3600,
        s / 60 % 60,
        s % 60,
        if runs == 1 { "" } else { "s" }
    )
}
