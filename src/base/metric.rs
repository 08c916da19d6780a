//! What a figure measures: wall time, or instructions a counter counted.
//! Suites, plans, the document and every report name metrics by this type
//! (`results::metric` views a document in one).

use serde::{Deserialize, Serialize};

use crate::base::units::{format_count, format_nanos};

/// What a figure measures.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Elapsed time, nanoseconds per call.
    #[default]
    Wall,
    /// Instructions executed per call, as a counter counted them.
    Instructions,
}

/// Whether `m` is wall time (serde's test for leaving the default out).
pub fn is_wall(m: &Metric) -> bool {
    *m == Metric::Wall
}

impl Metric {
    pub const ALL: [Metric; 2] = [Metric::Wall, Metric::Instructions];

    /// The name in settings, flags and files: "wall", "instructions".
    pub fn name(self) -> &'static str {
        match self {
            Metric::Wall => "wall",
            Metric::Instructions => "instructions",
        }
    }

    /// Reads a name as settings and flags write it.
    pub fn parse(text: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == text.trim())
    }

    /// A figure of this metric per call, with its unit: "3.45 µs", "24.1 M instr".
    pub fn format(self, value: f64) -> String {
        match self {
            Metric::Wall => format_nanos(value),
            Metric::Instructions => format!("{} instr", format_count(value)),
        }
    }

    /// What tables call the figure: "time", "instructions".
    pub fn noun(self) -> &'static str {
        match self {
            Metric::Wall => "time",
            Metric::Instructions => "instructions",
        }
    }

    /// "is faster", in this metric's words ("needs fewer instructions").
    pub fn is_faster(self) -> &'static str {
        match self {
            Metric::Wall => "is faster",
            Metric::Instructions => "needs fewer instructions",
        }
    }

    /// A slower and a faster verdict in this metric's words: "slower",
    /// "faster"; "more", "fewer" (instructions).
    pub fn verdict_words(self) -> (&'static str, &'static str) {
        match self {
            Metric::Wall => ("slower", "faster"),
            Metric::Instructions => ("more", "fewer"),
        }
    }

    /// "is fastest", in this metric's words.
    pub fn is_fastest(self) -> &'static str {
        match self {
            Metric::Wall => "is fastest",
            Metric::Instructions => "needs the fewest instructions",
        }
    }

    /// "fastest" as two implementations tie for it.
    pub fn fastest(self) -> &'static str {
        match self {
            Metric::Wall => "fastest",
            Metric::Instructions => "the fewest instructions",
        }
    }
}
