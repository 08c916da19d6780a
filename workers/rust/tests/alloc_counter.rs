//! `alloc_bytes` with the opt-in counting allocator installed: the bytes an
//! operation allocates inside the measured loop are reported.

use serde_json::Value;
use versus_worker::{CountingAllocator, Worker};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const ALLOCATION_BYTES: usize = 4096;

fn run(operation: &str, iterations: u64) -> Value {
    let worker = Worker::new()
        .stateless("allocates", || Ok(vec![7_u8; ALLOCATION_BYTES]))
        .stateless("noop", || Ok(b""));
    let requests = format!(
        "{{\"type\":\"setup\",\"id\":1,\"data\":{{\"operation\":\"{operation}\",\"params\":{{}},\"payload\":null,\"input\":null}}}}\n\
         {{\"type\":\"run\",\"id\":2,\"data\":{{\"iterations\":{iterations}}}}}\n"
    );
    let mut responses = Vec::new();
    worker.serve(requests.as_bytes(), &mut responses).unwrap();
    let result = responses.split(|&byte| byte == b'\n').nth(2).unwrap();
    let result: Value = serde_json::from_slice(result).unwrap();
    assert_eq!(result["type"], "result", "{result}");
    result
}

#[test]
fn reports_the_bytes_allocated_in_the_loop() {
    let iterations = 100;
    let result = run("allocates", iterations);
    let alloc_bytes = result["data"]["alloc_bytes"].as_u64().expect("alloc_bytes is reported");
    // At least the operation's own buffers; other threads of the test
    // harness may allocate too, so no upper bound.
    assert!(alloc_bytes >= iterations * ALLOCATION_BYTES as u64, "{result}");
    assert_eq!(result["data"].get("gc_count"), None, "Rust has no garbage collector");
}

#[test]
fn the_library_allocates_nothing_in_the_loop() {
    // The counter is process-wide, and the test harness's threads may
    // allocate at any moment; the library itself never does, so some
    // batches see zero.
    let fewest = (0..20)
        .map(|_| run("noop", 1000)["data"]["alloc_bytes"].as_u64().unwrap())
        .min();
    assert_eq!(fewest, Some(0));
}
