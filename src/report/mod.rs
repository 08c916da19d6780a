//! Reports: turn a finished (or interrupted) `Results` document into text.
//! Reporters only format; they never measure and never compute a statistic.

pub mod markdown;
pub mod tables;
pub mod terminal;
