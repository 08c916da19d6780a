//! Reports: turn a finished (or interrupted) `Results` document into text.
//! Reporters only format; they never measure and never compute a statistic.

pub mod charts;
pub mod export;
pub mod html;
pub mod markdown;
pub mod notes;
pub mod tables;
pub mod terminal;
