//! versus as a library: each layer usable on its own. The binary (`main.rs`)
//! is glue over `app`.
//!
//! Layers flow one way: `suite` (file → validated model) → `plan` (matrix →
//! groups of cells) → `runner` + `exec` (processes → samples) → `analysis` +
//! `stats` (samples → statistics, comparisons, warnings) → `report` (text).

pub mod analysis;
pub mod app;
pub mod cli;
pub mod diff;
pub mod environment;
pub mod exec;
pub mod outcome;
pub mod payload;
pub mod placeholder;
pub mod plan;
pub mod report;
pub mod results;
pub mod runner;
pub mod stats;
pub mod suite;
pub mod units;
pub mod worker;
