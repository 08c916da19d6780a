//! In-process benchmarks: the worker protocol, the core's client for it,
//! and the conformance runner that checks a worker library against it.

pub mod client;
pub mod conformance;
pub mod protocol;
