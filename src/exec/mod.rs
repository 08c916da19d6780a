//! Execution: starting and measuring processes, memory limits, and the
//! background services a suite needs.

pub mod cgroup;
pub mod helper;
pub mod process;
pub mod service;

pub use process::{Executor, Exit, ProcessExecutor, RunRecord, RunRequest};
