//! Bare start (Rust): a program that does nothing, for the suite's
//! `bare_start` row: the cost of starting a process, without the SDK, to
//! subtract from `cold_start`.

fn main() {}
