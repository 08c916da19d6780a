//! The versus side: serves `sha256_1mb` and `noop` (src/lib.rs) over the
//! worker protocol. The setup hook builds the 1 MB buffer (not timed).

use versus_worker::Worker;

fn main() {
    Worker::new()
        .operation(
            "sha256_1mb",
            |_| Ok(inprocess_bench::data()),
            |data: &mut Vec<u8>| Ok(inprocess_bench::sha256(data)),
        )
        .stateless("noop", || Ok(inprocess_bench::noop()))
        .run()
}
