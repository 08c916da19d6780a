use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn sum(c: &mut Criterion) {
    let mut g = c.benchmark_group("sum");
    for size in [64usize, 1024] {
        let v = vec![1u32; size];
        g.throughput(Throughput::Bytes((size * 4) as u64));
        g.bench_with_input(BenchmarkId::new("iter", size), &v, |b, v| b.iter(|| black_box(v).iter().sum::<u32>()));
        g.bench_with_input(BenchmarkId::new("fold", size), &v, |b, v| b.iter(|| black_box(v).iter().fold(0u32, |a, x| a + x)));
    }
    g.finish();
    c.bench_function("concat", |b| b.iter(|| format!("a{}", black_box(42))));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(100)).measurement_time(std::time::Duration::from_millis(300));
    targets = sum
}
criterion_main!(benches);
