//! The worker as versus starts it: its own process, with the protocol
//! channel on inherited fds 3 (requests) and 4 (responses) named by
//! `VERSUS_WORKER_FDS`, and stdout and stderr left to the code under test.
//!
//! The worker process is this test binary, run again with only the test
//! `child_worker` selected and `VERSUS_WORKER_TEST_CHILD` set. `bash` moves
//! the pipes that `Command` makes for stdin and stdout to fds 3 and 4, and
//! points the worker's own stdout at its stderr, so the test reads
//! responses on one pipe and what the code under test printed on another.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use versus_worker::Worker;

const CHILD_VARIABLE: &str = "VERSUS_WORKER_TEST_CHILD";
/// Longer than any conversation here takes; a worker still running then is
/// killed, so a broken worker fails the test instead of hanging it.
const DEADLINE: Duration = Duration::from_secs(30);

/// Not a test on its own: the worker process the other tests start. It
/// returns at once unless `VERSUS_WORKER_TEST_CHILD` is set.
#[test]
fn child_worker() {
    if std::env::var_os(CHILD_VARIABLE).is_none() {
        return;
    }
    Worker::new()
        .stateless("noop", || Ok(b""))
        .stateless("noisy", || {
            println!("noisy on stdout");
            eprintln!("noisy on stderr");
            Ok(b"noisy")
        })
        .run()
}

/// Starts the worker. `fds` is the value of `VERSUS_WORKER_FDS`, if any.
fn start_worker(fds: Option<&str>) -> WorkerProcess {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(r#"exec 3<&0 4>&1 </dev/null >&2; exec "$@""#)
        .arg("bash")
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "child_worker", "--nocapture", "--test-threads=1", "--quiet"])
        .env(CHILD_VARIABLE, "1")
        .env_remove("VERSUS_WORKER_FDS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(fds) = fds {
        command.env("VERSUS_WORKER_FDS", fds).env("VERSUS_PROTOCOL", "1");
    }
    let mut child = command.spawn().expect("bash starts");
    let requests = child.stdin.take().unwrap();
    let responses = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let printed = thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let child = Arc::new(Mutex::new(child));
    let watched = Arc::clone(&child);
    thread::spawn(move || {
        let started = Instant::now();
        while started.elapsed() < DEADLINE {
            if watched.lock().unwrap().try_wait().unwrap().is_some() {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = watched.lock().unwrap().kill();
    });
    WorkerProcess {
        child,
        requests: Some(requests),
        responses,
        printed: Some(printed),
    }
}

/// A running worker process, from the core's side.
struct WorkerProcess {
    child: Arc<Mutex<Child>>,
    requests: Option<ChildStdin>,
    responses: BufReader<ChildStdout>,
    printed: Option<thread::JoinHandle<String>>,
}

impl WorkerProcess {
    fn send(&mut self, request: Value) {
        writeln!(self.requests.as_mut().expect("request channel open"), "{request}").unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut line = String::new();
        self.responses.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "expected a response line, got {line:?}");
        serde_json::from_str(&line).unwrap()
    }

    fn ask(&mut self, request: Value) -> Value {
        self.send(request);
        self.receive()
    }

    fn close_requests(&mut self) {
        self.requests = None;
    }

    /// Waits for the worker to exit; returns its status and everything it
    /// wrote to stdout and stderr.
    fn finish(mut self) -> (ExitStatus, String) {
        self.close_requests();
        let status = loop {
            if let Some(status) = self.child.lock().unwrap().try_wait().unwrap() {
                break status;
            }
            thread::sleep(Duration::from_millis(10));
        };
        (status, self.printed.take().unwrap().join().unwrap())
    }
}

#[test]
fn serves_a_cell_on_fds_3_and_4_and_exits_0_after_shutdown() {
    let mut worker = start_worker(Some("3,4"));
    let hello = worker.receive();
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["id"], 0);
    assert_eq!(hello["data"]["operations"], json!(["noop", "noisy"]));

    let setup =
        json!({"type": "setup", "id": 1, "data": {"operation": "noop", "params": {}, "payload": null, "input": null}});
    assert_eq!(worker.ask(setup), json!({"type": "ready", "id": 1, "data": {}}));
    let result = worker.ask(json!({"type": "run", "id": 2, "data": {"iterations": 100}}));
    assert_eq!(
        (&result["type"], &result["id"], &result["data"]["iterations"]),
        (&json!("result"), &json!(2), &json!(100))
    );
    assert_eq!(
        worker.ask(json!({"type": "teardown", "id": 3, "data": {}}))["type"],
        "done"
    );
    assert_eq!(
        worker.ask(json!({"type": "shutdown", "id": 4, "data": {}})),
        json!({"type": "bye", "id": 4, "data": {}})
    );
    let (status, _) = worker.finish();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn what_the_operation_prints_does_not_reach_the_protocol() {
    let mut worker = start_worker(Some("3,4"));
    assert_eq!(worker.receive()["type"], "hello");
    let setup =
        json!({"type": "setup", "id": 1, "data": {"operation": "noisy", "params": {}, "payload": null, "input": null}});
    assert_eq!(worker.ask(setup)["type"], "ready");
    assert_eq!(
        worker.ask(json!({"type": "run", "id": 2, "data": {"iterations": 3}}))["data"]["iterations"],
        3
    );
    let output = worker.ask(json!({"type": "verify", "id": 3, "data": {}}));
    assert_eq!(
        output["data"],
        json!({"sha256": "acd6beff7c3430bfed5d69f86c5c9e6a32ad2a27a2c2a1e8763ce08f6c3da5ec", "length": 5})
    );
    let (status, printed) = worker.finish();
    assert_eq!(status.code(), Some(0));
    // Three runs and one verify, on each stream.
    assert_eq!(printed.matches("noisy on stdout").count(), 4, "{printed}");
    assert_eq!(printed.matches("noisy on stderr").count(), 4, "{printed}");
}

#[test]
fn exits_when_the_request_channel_closes() {
    let mut worker = start_worker(Some("3,4"));
    assert_eq!(worker.receive()["type"], "hello");
    worker.close_requests();
    let (status, _) = worker.finish();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn exits_2_with_a_message_when_not_started_by_versus() {
    let (status, printed) = start_worker(None).finish();
    assert_eq!(status.code(), Some(2));
    assert!(printed.contains("must be started by versus"), "{printed}");
    assert!(printed.contains("VERSUS_WORKER_FDS"), "{printed}");
}

#[test]
fn exits_2_when_the_fds_are_not_usable() {
    for fds in ["3", "three,four", "3,9"] {
        let (status, printed) = start_worker(Some(fds)).finish();
        assert_eq!(status.code(), Some(2), "VERSUS_WORKER_FDS={fds}: {printed}");
        assert!(printed.contains("VERSUS_WORKER_FDS"), "{printed}");
    }
}
