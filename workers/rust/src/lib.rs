//! The Rust worker library for versus: register named operations, and
//! versus times them in this process over the worker protocol
//! (docs/worker-protocol.md in the versus repository, version 1).
//!
//! ```no_run
//! use sha2::{Digest, Sha256};
//! use versus_worker::Worker;
//!
//! fn main() {
//!     Worker::new()
//!         // setup (not timed): read the input; the operation: digest it.
//!         .operation("sha256", |setup| setup.read_input(), |input: &mut Vec<u8>| Ok(Sha256::digest(input)))
//!         .run()
//! }
//! ```
//!
//! The library stays thin on purpose: versus owns the sampling policy, batch
//! sizes and statistics, so every language is measured by the same method.
//! A worker only answers requests: set an operation up, run it N times
//! between two readings of the monotonic clock, report the digest of one
//! call's output, tear it down.

mod alloc;
mod operation;
pub mod protocol;
mod transport;

use std::io::{self, BufRead, BufReader, Write};

pub use alloc::CountingAllocator;
pub use operation::{Error, Setup};
use operation::{Failure, Registered, Slot};
use protocol::{ErrorClass, Hello, PROTOCOL_VERSION, Request, Response};
use transport::ChannelError;

/// The `library` this worker reports in its `hello`.
pub const LIBRARY: &str = concat!("versus-worker-rust ", env!("CARGO_PKG_VERSION"));

/// The compiler that built the library, as `rustc --version` printed it.
pub const RUNTIME: &str = env!("VERSUS_WORKER_RUSTC_VERSION");

/// A worker: a set of named operations, served over the protocol channel.
///
/// Operations take their state as `&mut S`, built by their setup hook, and
/// return bytes: anything that is `AsRef<[u8]>` (`Vec<u8>`, `&[u8]`,
/// `[u8; N]`, `String`, `&str`, a digest array, `Rc<[u8]>`). A `String` is
/// its UTF-8 bytes.
#[derive(Default)]
pub struct Worker {
    operations: Vec<(String, Box<dyn Slot>)>,
    /// The index of the operation that is set up, if any.
    current: Option<usize>,
}

/// Why [`Worker::serve`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The core sent `shutdown`, and the worker answered `bye`.
    Shutdown,
    /// The request channel reached end of file.
    EndOfInput,
}

impl Worker {
    /// A worker with no operations.
    pub fn new() -> Worker {
        Worker::default()
    }

    /// Registers an operation with a setup hook.
    ///
    /// `setup` runs on each `setup` request, untimed; it receives the cell's
    /// parameters and paths and returns the state `S` that every call of
    /// `operation` gets. The state is dropped on `teardown`.
    ///
    /// # Panics
    ///
    /// If an operation of this name is already registered.
    pub fn operation<S, O>(
        self,
        name: &str,
        setup: impl FnMut(&Setup) -> Result<S, Error> + 'static,
        operation: impl FnMut(&mut S) -> Result<O, Error> + 'static,
    ) -> Worker
    where
        S: 'static,
        O: AsRef<[u8]> + 'static,
    {
        self.operation_with_teardown(name, setup, operation, |_| Ok(()))
    }

    /// Registers an operation with a setup hook and a teardown hook, which
    /// receives the state on `teardown` (and when the worker stops).
    ///
    /// # Panics
    ///
    /// If an operation of this name is already registered.
    pub fn operation_with_teardown<S, O>(
        mut self,
        name: &str,
        setup: impl FnMut(&Setup) -> Result<S, Error> + 'static,
        operation: impl FnMut(&mut S) -> Result<O, Error> + 'static,
        teardown: impl FnMut(S) -> Result<(), Error> + 'static,
    ) -> Worker
    where
        S: 'static,
        O: AsRef<[u8]> + 'static,
    {
        assert!(
            self.operations.iter().all(|(registered, _)| registered != name),
            "versus-worker: the operation `{name}` is registered twice"
        );
        self.operations
            .push((name.to_owned(), Box::new(Registered::new(setup, operation, teardown))));
        self
    }

    /// Registers an operation that needs no setup and no state.
    ///
    /// # Panics
    ///
    /// If an operation of this name is already registered.
    pub fn stateless<O>(self, name: &str, mut operation: impl FnMut() -> Result<O, Error> + 'static) -> Worker
    where
        O: AsRef<[u8]> + 'static,
    {
        self.operation(name, |_| Ok(()), move |_: &mut ()| operation())
    }

    /// The names of the registered operations, in registration order.
    pub fn operation_names(&self) -> impl Iterator<Item = &str> {
        self.operations.iter().map(|(name, _)| name.as_str())
    }

    /// The `hello` this worker sends when it starts.
    pub fn hello(&self) -> Hello {
        Hello {
            protocol: PROTOCOL_VERSION,
            language: "rust".to_owned(),
            runtime: RUNTIME.to_owned(),
            library: LIBRARY.to_owned(),
            operations: self.operation_names().map(str::to_owned).collect(),
        }
    }

    /// Serves the protocol on the channel versus passed in
    /// `VERSUS_WORKER_FDS`, then exits the process: status 0 after
    /// `shutdown` or at the end of the requests, 1 if the channel breaks,
    /// and 2, with a message on standard error, when the program was not
    /// started by versus.
    pub fn run(self) -> ! {
        let status = match transport::channel_from_env() {
            Err(ChannelError::NotStarted) => {
                eprintln!(
                    "this program is a versus worker (operations: {}); it must be started by versus, \
                     which passes its protocol channel in {}",
                    self.operation_names().collect::<Vec<_>>().join(", "),
                    transport::FDS_VARIABLE,
                );
                2
            }
            Err(ChannelError::Invalid(message)) => {
                eprintln!("versus-worker: {message}");
                2
            }
            Ok((requests, responses)) => {
                if cfg!(debug_assertions) {
                    eprintln!(
                        "versus-worker: this worker was built without optimizations; \
                         build it with --release for timings that mean something"
                    );
                }
                match self.serve(BufReader::new(requests), responses) {
                    Ok(_) => 0,
                    Err(error) => {
                        eprintln!("versus-worker: the protocol channel failed: {error}");
                        1
                    }
                }
            }
        };
        // The code under test may have left output in the buffer.
        let _ = io::stdout().flush();
        std::process::exit(status)
    }

    /// Serves the protocol on any pair of streams: sends `hello`, then
    /// answers one request line at a time until `shutdown` (answered with
    /// `bye`) or the end of the requests. The operation that is set up at
    /// the end is torn down.
    ///
    /// An `Err` means the streams failed (for example, the core went away
    /// while the worker wrote a response); protocol errors are answered on
    /// the stream and serving goes on.
    pub fn serve(mut self, mut requests: impl BufRead, mut responses: impl Write) -> io::Result<Ending> {
        send(&mut responses, 0, &Response::Hello(self.hello()))?;
        let mut line = Vec::new();
        loop {
            line.clear();
            if requests.read_until(b'\n', &mut line)? == 0 {
                self.stop();
                return Ok(Ending::EndOfInput);
            }
            // A blank line is not a message, and answering it would put an
            // unexpected response in front of the next request's.
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let incoming = protocol::decode_request(&line);
            let response = match incoming.request {
                Err(bad) => Response::error(ErrorClass::BadRequest, bad.0),
                Ok(Request::Shutdown) => {
                    self.stop();
                    send(&mut responses, incoming.id, &Response::Bye)?;
                    return Ok(Ending::Shutdown);
                }
                Ok(request) => self.handle(request),
            };
            send(&mut responses, incoming.id, &response)?;
        }
    }

    fn handle(&mut self, request: Request) -> Response {
        let answer = match request {
            Request::Setup(setup) => self.setup(setup),
            Request::Run { iterations } => self
                .current_slot()
                .and_then(|slot| slot.run(iterations))
                .map(Response::Result),
            Request::Verify => self.current_slot().and_then(|slot| slot.verify()).map(Response::Output),
            Request::Teardown => self.teardown().map(|()| Response::Done),
            // Answered by `serve`, which stops after it.
            Request::Shutdown => Ok(Response::Bye),
        };
        answer.unwrap_or_else(|failure| Response::error(failure.class, failure.message))
    }

    fn setup(&mut self, request: protocol::SetupRequest) -> Result<Response, Failure> {
        let Some(index) = self.operations.iter().position(|(name, _)| *name == request.operation) else {
            return Err(Failure::new(
                ErrorClass::UnknownOperation,
                format!(
                    "no operation named `{}` is registered; this worker has: {}",
                    request.operation,
                    self.operation_names().collect::<Vec<_>>().join(", ")
                ),
            ));
        };
        // The core tears a cell down before the next setup; if it did not,
        // the previous state still gets its teardown hook.
        self.stop();
        self.operations[index].1.setup(&Setup::from_request(request))?;
        self.current = Some(index);
        Ok(Response::Ready)
    }

    fn teardown(&mut self) -> Result<(), Failure> {
        match self.current.take() {
            Some(index) => self.operations[index].1.teardown(),
            // Nothing set up (or its setup failed): nothing to forget.
            None => Ok(()),
        }
    }

    /// Tears down whatever is set up when no one is waiting for an answer;
    /// a failing teardown hook is reported on standard error.
    fn stop(&mut self) {
        if let Err(failure) = self.teardown() {
            eprintln!("versus-worker: {}", failure.message);
        }
    }

    fn current_slot(&mut self) -> Result<&mut Box<dyn Slot>, Failure> {
        match self.current {
            Some(index) => Ok(&mut self.operations[index].1),
            None => Err(Failure::new(
                ErrorClass::BadRequest,
                "no operation is set up: send `setup` first",
            )),
        }
    }
}

/// Writes one response line and flushes it: the core is waiting for it.
fn send(responses: &mut impl Write, id: u64, response: &Response) -> io::Result<()> {
    responses.write_all(&protocol::encode_response(id, response))?;
    responses.flush()
}

#[cfg(test)]
mod tests;
