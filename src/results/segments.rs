//! Segments: the stretches of a cell's runs taken in one go. A run of the
//! suite may visit each group several times (`passes`), and an in-process
//! cell may be served by several worker processes (`forks`); each visit is
//! recorded as its own journal line and joined here into one cell, whose
//! samples are the segments' runs in order. Statistics then see which runs
//! share a moment and a process (`judge::levels`), and comparisons pair runs
//! only within a segment.

use serde::{Deserialize, Serialize};

use super::{Cell, Samples, ServiceUsage, StopRule};
use crate::base::outcome::Outcome;

/// The levels of repetition behind an estimate: runs, and the segments
/// (passes of the suite, worker processes) they were taken in.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Levels {
    /// Segments the runs came from; 1 when all were taken in one go.
    pub segments: usize,
    /// Share of one run's variance that lies between segments (0 to 1);
    /// null with one segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub between_share: Option<f64>,
    /// Whether the variation between segments widened the interval.
    #[serde(default)]
    pub widened: bool,
    /// Where the segments settled at two levels (`judge::levels::modes`,
    /// the `segment_modes` warning's rule): how many of them at the slower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<SegmentModes>,
}

/// Segments that settled at two levels.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SegmentModes {
    /// Segments at the slower level, of `of` in all.
    pub slow: usize,
    pub of: usize,
    /// Median of the slow segments' medians over that of the fast ones.
    pub ratio: f64,
}

/// How the run visited its groups (`plan::schedule`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Design {
    /// Visits of every group, each pass in a fresh random order.
    pub passes: u32,
    /// Worker processes per in-process cell over the run.
    pub forks: u32,
    /// Seed of the passes' shuffles: the same seed gives the same order.
    pub order_seed: u64,
    /// The order a group's implementations took their runs in; absent in
    /// results written before it could be chosen (they were interleaved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<crate::base::order::Order>,
    /// Whether in-process cells ran an untimed batch before each timed one
    /// that followed another process's turn; absent in results written
    /// before the lead-in (they did not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead_in: Option<bool>,
}

/// A stretch of a cell's measured runs taken in one go: its group's turn in
/// one pass of the suite, in one worker process for an in-process cell. The
/// cell's samples are its segments' runs, in segment order.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Segment {
    /// The pass of the suite (0-based).
    pub pass: u32,
    /// The worker process within the pass (0-based); 0 for process cells.
    #[serde(default)]
    pub fork: u32,
    /// Measured runs (samples) in this segment.
    pub runs: u32,
    /// Warm-up runs taken before them.
    #[serde(default)]
    pub warmup_runs: u32,
    /// When the segment's group started (RFC 3339): segments of two cells
    /// with the same key and time were measured side by side.
    pub started_at: String,
    /// Counted runs (`samples.instructions`) in this segment.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub counted: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Segment {
    pub fn key(&self) -> (u32, u32) {
        (self.pass, self.fork)
    }
}

/// A segment's place in its cell: its key, when it started, and its samples.
pub struct Span<'c> {
    pub key: (u32, u32),
    pub started_at: Option<&'c str>,
    pub runs: std::ops::Range<usize>,
}

impl Cell {
    /// Each segment's runs as a range of sample indices, with its key and
    /// start. One span of every sample when the cell has no segments or their
    /// counts do not add up to its samples.
    pub fn segment_spans(&self) -> Vec<Span<'_>> {
        let n = self.samples.len();
        let total: usize = self.segments.iter().map(|s| s.runs as usize).sum();
        if self.segments.is_empty() || total != n {
            return vec![Span {
                key: (0, 0),
                started_at: self.started_at.as_deref(),
                runs: 0..n,
            }];
        }
        let mut at = 0;
        self.segments
            .iter()
            .map(|s| {
                let runs = at..at + s.runs as usize;
                at = runs.end;
                Span {
                    key: s.key(),
                    started_at: Some(s.started_at.as_str()),
                    runs,
                }
            })
            .collect()
    }

    /// The number of measured runs in each segment, in sample order.
    pub fn segment_lengths(&self) -> Vec<usize> {
        self.segment_spans().into_iter().map(|s| s.runs.len()).collect()
    }

    /// Warm-up runs of the first segment: those that lead into the measured series.
    pub fn first_warmup_runs(&self) -> usize {
        self.segments
            .first()
            .map_or(self.warmup_wall_ns.len(), |s| s.warmup_runs as usize)
            .min(self.warmup_wall_ns.len())
    }

    /// The first segment's warm-up per call: the lead-in of the measured
    /// series, which warm-up and steady-state checks read (later segments'
    /// warm-ups start afresh after other groups ran).
    pub fn lead_in_per_call_ns(&self) -> Vec<f64> {
        let mut warm = self.warmup_per_call_ns();
        warm.truncate(self.first_warmup_runs());
        warm
    }

    /// Whether this cell holds the segment `key`.
    pub fn has_segment(&self, key: (u32, u32)) -> bool {
        if self.segments.is_empty() {
            return key == (0, 0);
        }
        self.segments.iter().any(|s| s.key() == key)
    }

    /// Joins a later segment of the same cell (the same id) into this one.
    /// A record of a segment this cell already holds, or of a cell kept
    /// without segments, replaces it whole: the last record of a cell wins,
    /// as it always has. A segment that did not end ok makes the cell's
    /// outcome its own; its samples are kept for the record.
    pub fn absorb(&mut self, later: Cell) {
        let fresh = !later.segments.is_empty()
            && !self.segments.is_empty()
            && later.segments.iter().all(|s| !self.has_segment(s.key()));
        if !fresh {
            *self = later;
            return;
        }
        if later.outcome != Outcome::Ok && self.outcome == Outcome::Ok {
            self.outcome = later.outcome;
            self.message = later.message.clone();
            self.harness_fault = later.harness_fault;
            self.stop_rule = StopRule::Failed;
        } else if self.stop_rule == StopRule::Fixed {
            self.stop_rule = later.stop_rule;
        }
        self.warmup_runs += later.warmup_runs;
        self.runs_requested += later.runs_requested;
        self.warmup_wall_ns.extend(later.warmup_wall_ns);
        self.samples.append(later.samples);
        merge_services(&mut self.services, later.services);
        self.segments.extend(later.segments);
        self.stats = None;
    }
}

/// Adds a visit's cells to those recorded so far: a cell seen before takes
/// the new segment (`Cell::absorb`), a new one is added.
pub fn gather(all: &mut indexmap::IndexMap<String, Cell>, cells: Vec<Cell>) {
    for c in cells {
        match all.get_mut(&c.id) {
            Some(earlier) => earlier.absorb(c),
            None => {
                all.insert(c.id.clone(), c);
            }
        }
    }
}

/// Adds the service usage of a later segment, service by service.
fn merge_services(into: &mut Vec<ServiceUsage>, later: Vec<ServiceUsage>) {
    for u in later {
        match into.iter_mut().find(|x| x.name == u.name) {
            Some(x) => {
                x.cpu_ns += u.cpu_ns;
                x.calls += u.calls;
                x.peak_rss_bytes = match (x.peak_rss_bytes, u.peak_rss_bytes) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                };
            }
            None => into.push(u),
        }
    }
}

impl Samples {
    /// Appends a later segment's samples after these.
    pub fn append(&mut self, later: Samples) {
        // The order only where both sides have one for every run: runs
        // without one cannot be placed.
        self.order = match (self.order.take(), &later.order) {
            (Some(mut mine), Some(theirs))
                if mine.len() == self.wall_ns.len() && theirs.len() == later.wall_ns.len() =>
            {
                mine.append(theirs);
                Some(mine)
            }
            (None, Some(theirs)) if self.wall_ns.is_empty() => Some(theirs.clone()),
            _ => None,
        };
        self.wall_ns.append(&later.wall_ns);
        self.user_ns.append(&later.user_ns);
        self.sys_ns.append(&later.sys_ns);
        self.max_rss_bytes.append(&later.max_rss_bytes);
        self.rss_floor_bytes.append(&later.rss_floor_bytes);
        self.warmup_max_rss_bytes.extend(later.warmup_max_rss_bytes);
        self.warmup_rss_floor_bytes.extend(later.warmup_rss_floor_bytes);
        self.iterations.extend(later.iterations);
        self.alloc_bytes.extend(later.alloc_bytes);
        self.gc_count.extend(later.gc_count);
        self.warmup_iterations.extend(later.warmup_iterations);
        self.instructions.extend(later.instructions);
        self.instruction_iterations.extend(later.instruction_iterations);
        self.instruction_overhead.extend(later.instruction_overhead);
        self.counter = self.counter.take().or(later.counter);
        self.instructions_error = self.instructions_error.take().or(later.instructions_error);
        self.worker_max_rss_bytes = match (self.worker_max_rss_bytes, later.worker_max_rss_bytes) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
}
