//! The native side: criterion with its default settings (3 s warm-up, 5 s
//! measurement, 100 samples) times the same two functions.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    let data = inprocess_bench::data();
    // Same bytes as every other language: check the digest before timing.
    assert_eq!(
        hex(inprocess_bench::sha256(&data).as_ref()),
        "34596c4573adf4f29b28ef2c79c997eeb28dcf482ce9370047b727b0396a798c"
    );
    c.bench_function("sha256_1mb", |b| b.iter(|| inprocess_bench::sha256(black_box(&data))));
    c.bench_function("noop", |b| b.iter(inprocess_bench::noop));
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

criterion_group!(native, benches);
criterion_main!(native);
