//! Execution: starting and measuring processes, memory limits, and the
//! background services a suite needs.
//!
//! `contract` is what the scheduler speaks (requests, records, the
//! `Executor` trait); `process` starts runs from this process; `helper`
//! wraps an executor so runs that need exact peak memory start from a small
//! spawn helper; `interrupt` is versus's own interruption; `streams`,
//! `rss` and `cgroup` serve `process`; `counter` counts instructions
//! (perf, or valgrind) around a run or a worker's batches; `speed` reads
//! the machine's own speed between rounds.

pub mod cgroup;
pub mod contract;
pub mod counter;
pub mod guard;
pub mod helper;
pub mod interrupt;
pub mod process;
pub mod rss;
pub mod service;
pub mod speed;
pub mod streams;
pub mod usage;

pub use contract::{Executor, Exit, RSS_FLOOR_SLACK, RunRecord, RunRequest};
pub use process::ProcessExecutor;
