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

mod cgroup;
mod contract;
mod counter;
pub mod guard;
pub mod helper;
pub mod interrupt;
mod process;
mod rss;
mod service;
mod speed;
mod streams;
mod usage;

pub use contract::{Executor, Exit, RSS_FLOOR_SLACK, RunRecord, RunRequest};
pub(crate) use counter::{CountedWorker, Counter, executed_between, log_tail};
pub use process::ProcessExecutor;
pub(crate) use process::fix_layout;
pub(crate) use rss::{image_peak, reset_own_peak};
pub(crate) use service::{Services, free_ports};
pub(crate) use speed::{affordable as speed_affordable, read as read_speed, workload};
pub(crate) use streams::tail;
pub(crate) use usage::{Reading, UsageMeter};
