//! The ground floor: the nouns every layer shares — units, command
//! placeholders, cell outcomes, parameter sets, metrics and the order runs
//! are taken in — and the guards every layer needs: the environment of the
//! processes versus starts (`child`), passwords hidden in command lines
//! (`redact`), names as folder names (`folder`), files written whole
//! (`output`), a cache folder only this
//! user can write to (`private`) and text escaped for the
//! place it goes (`sink`). It imports nothing from the rest of the crate, so any layer
//! may use it without pulling another layer in.

pub mod child;
pub mod digest;
pub mod folder;
pub mod metric;
pub mod order;
pub mod outcome;
pub mod output;
pub mod parallel;
pub mod params;
pub mod placeholder;
pub mod private;
pub mod redact;
pub mod sink;
pub mod text;
pub mod units;
