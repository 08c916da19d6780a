//! In-process benchmarks: the worker protocol, the core's client for it,
//! and the conformance runner that checks a worker library against it.

mod client;
mod conformance;
mod protocol;

pub(crate) use client::{WorkerError, WorkerProcess};
pub(crate) use conformance::{load as load_scenarios, run as run_conformance};
pub(crate) use protocol::Hello;
pub use protocol::Message;
