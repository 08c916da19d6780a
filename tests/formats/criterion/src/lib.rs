//! Empty: the benchmarks are in benches/.
