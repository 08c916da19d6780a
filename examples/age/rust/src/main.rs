//! age-bench-rust: the `age` crate 0.12 in-process, for examples/age's
//! library suites (age-lib.toml, age-keygen.toml, age-keys.toml,
//! age-random.toml). Same operations, inputs and outputs as the Go worker
//! (examples/age/go); the crate has no ML-KEM-768-X25519 hybrid recipient,
//! so `kind = "hybrid"` is refused (the suites skip it for this worker).
//!
//!     age-bench-rust --version

mod keys;
mod stream;

use versus_worker::Worker;

#[global_allocator]
static ALLOCATOR: versus_worker::CountingAllocator = versus_worker::CountingAllocator;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("age crate 0.12.1, {}", versus_worker::RUNTIME);
        return;
    }
    Worker::new()
        .operation("encrypt", |s| stream::setup(s, false), stream::encrypt_op)
        .operation("decrypt", |s| stream::setup(s, true), stream::decrypt_op)
        .operation("read_sequential", |s| stream::setup_random(s, false), stream::read_blocks)
        .operation("read_random", |s| stream::setup_random(s, true), stream::read_blocks)
        .operation("keygen", keys::setup_keygen, keys::keygen)
        .operation("wrap", keys::setup_pair, keys::wrap)
        .operation("unwrap", keys::setup_pair, keys::unwrap)
        .run()
}
