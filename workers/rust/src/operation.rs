//! Registered operations and the measured loop.
//!
//! Each operation is stored behind the object-safe [`Slot`] trait, but its
//! timed loop is generic over the user's closures, so the compiler sees the
//! operation's body inside the loop and nothing of the library is called
//! between the two clock readings.

use std::any::Any;
use std::hint::black_box;
use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::alloc;
use crate::protocol::{ErrorClass, Output, RunResult, SetupRequest};

/// The error type of setup hooks, operations and teardown hooks: any error,
/// so `?` works on I/O and parse errors, and `Err("message".into())` works too.
pub type Error = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What a setup hook receives: the cell's parameters and file paths.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    params: Map<String, Value>,
    payload: Option<PathBuf>,
    input: Option<PathBuf>,
}

impl Setup {
    /// A setup context, as a `setup` request would give it (useful in tests
    /// of an operation's hooks).
    pub fn new(params: Map<String, Value>, payload: Option<PathBuf>, input: Option<PathBuf>) -> Setup {
        Setup { params, payload, input }
    }

    pub(crate) fn from_request(request: SetupRequest) -> Setup {
        Setup::new(request.params, request.payload, request.input)
    }

    /// The cell's matrix parameters: name to string, number or boolean.
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// One parameter, as JSON.
    pub fn param(&self, name: &str) -> Option<&Value> {
        self.params.get(name)
    }

    /// One parameter as text: a string as is, a number or boolean as written.
    pub fn param_str(&self, name: &str) -> Option<String> {
        match self.params.get(name)? {
            Value::String(text) => Some(text.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    /// One parameter as a non-negative integer, from a JSON integer or a
    /// string holding one. `Ok(None)` when the parameter is absent; an error
    /// when it is present but not such an integer.
    pub fn param_u64(&self, name: &str) -> Result<Option<u64>, Error> {
        let parsed = match self.params.get(name) {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Number(number)) => number.as_u64(),
            Some(Value::String(text)) => text.trim().parse().ok(),
            Some(_) => None,
        };
        match parsed {
            Some(value) => Ok(Some(value)),
            None => Err(format!(
                "parameter `{name}` must be a non-negative integer, not {}",
                self.params[name]
            )
            .into()),
        }
    }

    /// Path of the payload file, if the cell has one.
    pub fn payload(&self) -> Option<&Path> {
        self.payload.as_deref()
    }

    /// Path of the operation's input (the payload, or an earlier operation's
    /// output), if the cell has one.
    pub fn input(&self) -> Option<&Path> {
        self.input.as_deref()
    }

    /// Reads the whole input file into memory. An error when the cell has
    /// no input or the file cannot be read.
    pub fn read_input(&self) -> Result<Vec<u8>, Error> {
        let path = self
            .input()
            .ok_or("this operation needs an input file, and the cell has none")?;
        std::fs::read(path).map_err(|error| format!("cannot read input {}: {error}", path.display()).into())
    }
}

/// A request that could not be served, with its protocol error class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub class: ErrorClass,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(class: ErrorClass, message: impl Into<String>) -> Failure {
        Failure {
            class,
            message: message.into(),
        }
    }
}

/// One registered operation with its hooks and, between `setup` and
/// `teardown`, its state.
pub(crate) trait Slot {
    /// Runs the setup hook and keeps the state it returns (replacing any).
    fn setup(&mut self, context: &Setup) -> Result<(), Failure>;
    /// Times `iterations` calls. `iterations` is at least 1.
    fn run(&mut self, iterations: u64) -> Result<RunResult, Failure>;
    /// Calls the operation once and digests what it returns.
    fn verify(&mut self) -> Result<Output, Failure>;
    /// Runs the teardown hook on the state, if there is one, and forgets it.
    fn teardown(&mut self) -> Result<(), Failure>;
}

pub(crate) struct Registered<S, O, SetupFn, OpFn, TeardownFn> {
    setup: SetupFn,
    operation: OpFn,
    teardown: TeardownFn,
    state: Option<S>,
    output: PhantomData<fn() -> O>,
}

impl<S, O, SetupFn, OpFn, TeardownFn> Registered<S, O, SetupFn, OpFn, TeardownFn> {
    pub(crate) fn new(setup: SetupFn, operation: OpFn, teardown: TeardownFn) -> Self {
        Registered {
            setup,
            operation,
            teardown,
            state: None,
            output: PhantomData,
        }
    }
}

impl<S, O, SetupFn, OpFn, TeardownFn> Slot for Registered<S, O, SetupFn, OpFn, TeardownFn>
where
    O: AsRef<[u8]>,
    SetupFn: FnMut(&Setup) -> Result<S, Error>,
    OpFn: FnMut(&mut S) -> Result<O, Error>,
    TeardownFn: FnMut(S) -> Result<(), Error>,
{
    fn setup(&mut self, context: &Setup) -> Result<(), Failure> {
        // A state left from an earlier setup is dropped (without its teardown
        // hook) before the new one is built, so at most one exists at a time.
        self.state = None;
        let setup = &mut self.setup;
        match panic::catch_unwind(AssertUnwindSafe(|| setup(context))) {
            Ok(Ok(state)) => {
                self.state = Some(state);
                Ok(())
            }
            Ok(Err(error)) => Err(Failure::new(ErrorClass::SetupFailed, format!("setup failed: {error}"))),
            Err(panic) => Err(Failure::new(
                ErrorClass::SetupFailed,
                format!("setup panicked: {}", panic_message(&*panic)),
            )),
        }
    }

    fn run(&mut self, iterations: u64) -> Result<RunResult, Failure> {
        let state = self.state.as_mut().ok_or_else(not_set_up)?;
        let operation = &mut self.operation;
        let measured = panic::catch_unwind(AssertUnwindSafe(|| measure(operation, state, iterations)));
        match measured {
            Ok(Measured {
                elapsed,
                alloc_bytes,
                error: None,
            }) => Ok(RunResult {
                iterations,
                elapsed_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
                alloc_bytes,
            }),
            Ok(Measured { error: Some(error), .. }) => Err(operation_failed(&error)),
            Err(panic) => Err(operation_panicked(&*panic)),
        }
    }

    fn verify(&mut self) -> Result<Output, Failure> {
        let state = self.state.as_mut().ok_or_else(not_set_up)?;
        let operation = &mut self.operation;
        match panic::catch_unwind(AssertUnwindSafe(|| {
            operation(state).map(|output| digest(output.as_ref()))
        })) {
            Ok(Ok(output)) => Ok(output),
            Ok(Err(error)) => Err(operation_failed(&error)),
            Err(panic) => Err(operation_panicked(&*panic)),
        }
    }

    fn teardown(&mut self) -> Result<(), Failure> {
        let Some(state) = self.state.take() else { return Ok(()) };
        let teardown = &mut self.teardown;
        match panic::catch_unwind(AssertUnwindSafe(|| teardown(state))) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(Failure::new(
                ErrorClass::OperationFailed,
                format!("teardown failed: {error}"),
            )),
            Err(panic) => Err(Failure::new(
                ErrorClass::OperationFailed,
                format!("teardown panicked: {}", panic_message(&*panic)),
            )),
        }
    }
}

struct Measured {
    elapsed: Duration,
    alloc_bytes: Option<u64>,
    /// The first error the operation returned; the batch stops there.
    error: Option<Error>,
}

/// The measured loop: two monotonic clock readings around `iterations`
/// calls, nothing else. Each call's state goes in and its result comes out
/// through `black_box`, so the compiler can neither hoist the call out of
/// the loop nor drop the work whose result is unused. The allocation
/// counter is read just outside the clock readings.
#[inline(never)]
fn measure<S, O>(operation: &mut impl FnMut(&mut S) -> Result<O, Error>, state: &mut S, iterations: u64) -> Measured {
    let allocated_before = alloc::allocated_bytes();
    let started = Instant::now();
    let mut error = None;
    for _ in 0..iterations {
        match operation(black_box(&mut *state)) {
            Ok(output) => drop(black_box(output)),
            Err(failed) => {
                error = Some(failed);
                break;
            }
        }
    }
    let elapsed = started.elapsed();
    let allocated_after = alloc::allocated_bytes();
    let alloc_bytes = allocated_before
        .zip(allocated_after)
        .map(|(before, after)| after.wrapping_sub(before));
    Measured {
        elapsed,
        alloc_bytes,
        error,
    }
}

/// The `output` of one call: SHA-256 (lowercase hex) and length of the bytes.
pub(crate) fn digest(bytes: &[u8]) -> Output {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut sha256 = String::with_capacity(2 * hash.len());
    for byte in hash.iter() {
        sha256.push(char::from(HEX[usize::from(byte >> 4)]));
        sha256.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    Output {
        sha256,
        length: bytes.len() as u64,
    }
}

fn not_set_up() -> Failure {
    Failure::new(ErrorClass::BadRequest, "no operation is set up: send `setup` first")
}

fn operation_failed(error: &Error) -> Failure {
    Failure::new(ErrorClass::OperationFailed, format!("operation failed: {error}"))
}

fn operation_panicked(panic: &(dyn Any + Send)) -> Failure {
    Failure::new(
        ErrorClass::OperationFailed,
        format!("operation panicked: {}", panic_message(panic)),
    )
}

fn panic_message(panic: &(dyn Any + Send)) -> &str {
    if let Some(message) = panic.downcast_ref::<&str>() {
        message
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message
    } else {
        "(no message)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn context(params: Value) -> Setup {
        let Value::Object(params) = params else {
            panic!("params must be an object")
        };
        Setup::new(params, None, None)
    }

    #[test]
    fn digest_is_lowercase_hex_sha256_and_length() {
        assert_eq!(
            digest(b""),
            Output {
                sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".to_owned(),
                length: 0
            }
        );
        assert_eq!(
            digest(b"noisy"),
            Output {
                sha256: "acd6beff7c3430bfed5d69f86c5c9e6a32ad2a27a2c2a1e8763ce08f6c3da5ec".to_owned(),
                length: 5
            }
        );
    }

    #[test]
    fn params_read_as_text_and_integers() {
        let setup = context(json!({"micros": 2000, "size": "1024", "name": "fast", "flag": true, "neg": -1}));
        assert_eq!(setup.param_u64("micros").unwrap(), Some(2000));
        assert_eq!(setup.param_u64("size").unwrap(), Some(1024));
        assert_eq!(setup.param_u64("missing").unwrap(), None);
        assert!(setup.param_u64("name").is_err());
        assert!(setup.param_u64("neg").is_err());
        assert!(setup.param_u64("flag").is_err());
        assert_eq!(setup.param_str("micros").as_deref(), Some("2000"));
        assert_eq!(setup.param_str("name").as_deref(), Some("fast"));
        assert_eq!(setup.param_str("flag").as_deref(), Some("true"));
        assert_eq!(setup.param("flag"), Some(&json!(true)));
        assert_eq!(setup.param_str("missing"), None);
    }

    #[test]
    fn read_input_needs_an_input() {
        assert!(context(json!({})).read_input().is_err());
        let missing = Setup::new(
            Map::new(),
            None,
            Some(PathBuf::from("/nonexistent/versus-worker-input")),
        );
        let message = missing.read_input().unwrap_err().to_string();
        assert!(message.contains("/nonexistent/versus-worker-input"), "{message}");
    }

    #[test]
    fn run_calls_the_operation_exactly_iterations_times() {
        // The operation counts its calls in its state; verify returns the count.
        let mut slot = Registered::new(
            |_: &Setup| Ok(0_u64),
            |calls: &mut u64| {
                *calls += 1;
                Ok(calls.to_le_bytes())
            },
            |_| Ok(()),
        );
        slot.setup(&context(json!({}))).unwrap();
        let result = slot.run(37).unwrap();
        assert_eq!(result.iterations, 37);
        assert_eq!(result.alloc_bytes, None, "no counting allocator in this test binary");
        assert_eq!(slot.verify().unwrap(), digest(&38_u64.to_le_bytes()));
    }

    #[test]
    fn errors_and_panics_have_their_classes() {
        let mut failing = Registered::new(
            |_: &Setup| Ok(()),
            |_: &mut ()| -> Result<&[u8], Error> { Err("boom".into()) },
            |_| Err("cannot tear down".into()),
        );
        assert_eq!(
            failing.run(1).unwrap_err().class,
            ErrorClass::BadRequest,
            "run before setup"
        );
        assert_eq!(
            failing.verify().unwrap_err().class,
            ErrorClass::BadRequest,
            "verify before setup"
        );
        assert_eq!(failing.teardown(), Ok(()), "teardown without state is a no-op");
        failing.setup(&context(json!({}))).unwrap();
        let failure = failing.run(3).unwrap_err();
        assert_eq!(failure.class, ErrorClass::OperationFailed);
        assert!(failure.message.contains("boom"));
        assert_eq!(failing.verify().unwrap_err().class, ErrorClass::OperationFailed);
        assert_eq!(failing.teardown().unwrap_err().class, ErrorClass::OperationFailed);
        assert_eq!(
            failing.run(1).unwrap_err().class,
            ErrorClass::BadRequest,
            "state is forgotten"
        );

        let mut panicking = Registered::new(
            |setup: &Setup| {
                if setup.param("panic").is_some() {
                    panic!("setup exploded")
                } else {
                    Ok(())
                }
            },
            |_: &mut ()| -> Result<&[u8], Error> { panic!("operation exploded") },
            |_| Ok(()),
        );
        let failure = panicking.setup(&context(json!({"panic": true}))).unwrap_err();
        assert_eq!(failure.class, ErrorClass::SetupFailed);
        assert!(failure.message.contains("setup exploded"), "{}", failure.message);
        panicking.setup(&context(json!({}))).unwrap();
        let failure = panicking.run(2).unwrap_err();
        assert_eq!(failure.class, ErrorClass::OperationFailed);
        assert!(failure.message.contains("operation exploded"), "{}", failure.message);

        let mut bad_setup = Registered::new(
            |_: &Setup| -> Result<(), Error> { Err("no".into()) },
            |_: &mut ()| Ok(b""),
            |_| Ok(()),
        );
        assert_eq!(
            bad_setup.setup(&context(json!({}))).unwrap_err().class,
            ErrorClass::SetupFailed
        );
        assert_eq!(
            bad_setup.run(1).unwrap_err().class,
            ErrorClass::BadRequest,
            "no state after a failed setup"
        );
    }

    #[test]
    fn teardown_gets_the_state() {
        use std::cell::Cell;
        use std::rc::Rc;
        let torn_down = Rc::new(Cell::new(None));
        let seen = Rc::clone(&torn_down);
        let mut slot = Registered::new(
            |setup: &Setup| Ok(setup.param_u64("n")?.unwrap_or(0)),
            |n: &mut u64| Ok(n.to_string()),
            move |n: u64| {
                seen.set(Some(n));
                Ok(())
            },
        );
        slot.setup(&context(json!({"n": 5}))).unwrap();
        assert_eq!(
            slot.verify().unwrap(),
            digest(b"5"),
            "a String output is its UTF-8 bytes"
        );
        slot.teardown().unwrap();
        assert_eq!(torn_down.get(), Some(5));
    }
}
