//! The conformance program: the operations docs/worker-protocol.md lists
//! for `versus conformance`, with the behaviour it describes.
//!
//! ```sh
//! cargo build --release --example conformance_worker
//! versus conformance -- target/release/examples/conformance_worker
//! ```

use std::hint::spin_loop;
use std::rc::Rc;
use std::time::{Duration, Instant};

use versus_worker::{Error, Worker};

/// How long `spin` busy-waits per call when the cell has no `micros`.
const DEFAULT_SPIN_MICROS: u64 = 100;

fn main() {
    Worker::new()
        // The input's bytes, shared with each call's result instead of copied.
        .operation(
            "echo",
            |setup| Ok(Rc::<[u8]>::from(setup.read_input()?)),
            |input: &mut Rc<[u8]>| Ok(Rc::clone(input)),
        )
        .stateless("noop", || Ok(b""))
        .operation(
            "spin",
            |setup| {
                Ok(Duration::from_micros(
                    setup.param_u64("micros")?.unwrap_or(DEFAULT_SPIN_MICROS),
                ))
            },
            |duration: &mut Duration| {
                spin(*duration);
                Ok(b"spin")
            },
        )
        .stateless("noisy", || {
            println!("noisy: a line on stdout");
            eprintln!("noisy: a line on stderr");
            Ok(b"noisy")
        })
        .stateless("fails", || -> Result<&[u8], Error> {
            Err("fails: this operation fails on every call".into())
        })
        .operation(
            "bad_setup",
            |_| -> Result<(), Error> { Err("bad_setup: this setup hook always fails".into()) },
            |_: &mut ()| Ok(b""),
        )
        .run()
}

/// Busy-waits (no sleeping, so the time is spent on the CPU) for `duration`.
fn spin(duration: Duration) {
    let started = Instant::now();
    while started.elapsed() < duration {
        spin_loop();
    }
}
