//! The order a group's implementations take their runs in: a suite setting,
//! a flag, and a fact every results document records, since it decides
//! whether two cells' runs can be paired.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The order a group's implementations take their runs in (`plan::order`).
#[derive(Debug, Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Rounds in a carry-over balanced pattern: over each block of rounds every
    /// implementation runs right after every implementation, itself included,
    /// equally often.
    #[default]
    Balanced,
    /// Rounds rotated by one each time (A B C, B C A, C A B).
    Interleaved,
    /// Each implementation's runs one after another (hyperfine's order).
    Blocked,
}

impl Order {
    /// As the suite file and `--order` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Order::Balanced => "balanced",
            Order::Interleaved => "interleaved",
            Order::Blocked => "blocked",
        }
    }
}
