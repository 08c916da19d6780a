//! Whole conversations through `Worker::serve`: in memory, and through real
//! pipes with the worker on its own thread. The tests decode responses as
//! plain JSON, not with the library's own types, so an encoding mistake
//! cannot cancel out.

use std::cell::Cell;
use std::io::{BufRead, BufReader, Write};
use std::rc::Rc;
use std::sync::mpsc;
use std::thread;

use serde_json::{Value, json};

use super::*;

const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

fn test_worker() -> Worker {
    Worker::new()
        .operation(
            "echo",
            |setup| Ok(Rc::<[u8]>::from(setup.read_input()?)),
            |bytes: &mut Rc<[u8]>| Ok(Rc::clone(bytes)),
        )
        .stateless("noop", || Ok(b""))
        .stateless("text", || Ok("héllo".to_owned()))
        .stateless("fails", || -> Result<&[u8], Error> { Err("always fails".into()) })
        .operation(
            "bad_setup",
            |_| -> Result<(), Error> { Err("cannot set up".into()) },
            |_: &mut ()| Ok(b""),
        )
}

/// Runs a whole conversation in memory and returns the decoded responses.
fn converse(worker: Worker, requests: &[Value]) -> (Vec<Value>, Ending) {
    let mut input = Vec::new();
    for request in requests {
        match request {
            Value::String(raw) => input.extend_from_slice(raw.as_bytes()),
            request => input.extend_from_slice(request.to_string().as_bytes()),
        }
        input.push(b'\n');
    }
    let mut output = Vec::new();
    let ending = worker
        .serve(&input[..], &mut output)
        .expect("in-memory streams do not fail");
    let responses = output
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).expect("every response line is JSON"))
        .collect();
    (responses, ending)
}

fn kinds(responses: &[Value]) -> Vec<&str> {
    responses
        .iter()
        .map(|response| response["type"].as_str().unwrap())
        .collect()
}

fn error_class(response: &Value) -> &str {
    assert_eq!(response["type"], "error", "{response}");
    assert!(response["data"]["message"].is_string(), "{response}");
    response["data"]["class"].as_str().unwrap()
}

fn setup(id: u64, operation: &str, input: Option<&str>) -> Value {
    json!({"type": "setup", "id": id, "data": {"operation": operation, "params": {}, "payload": input, "input": input}})
}

#[test]
fn hello_names_the_protocol_language_runtime_library_and_operations() {
    let (responses, ending) = converse(test_worker(), &[]);
    assert_eq!(ending, Ending::EndOfInput);
    assert_eq!(responses.len(), 1);
    let hello = &responses[0];
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["id"], 0);
    assert_eq!(hello["data"]["protocol"], 1);
    assert_eq!(hello["data"]["language"], "rust");
    assert!(
        hello["data"]["runtime"].as_str().unwrap().starts_with("rustc "),
        "{hello}"
    );
    assert_eq!(
        hello["data"]["library"],
        format!("versus-worker-rust {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        hello["data"]["operations"],
        json!(["echo", "noop", "text", "fails", "bad_setup"])
    );
}

#[test]
fn a_full_cell_from_setup_to_shutdown() {
    let dir = std::env::temp_dir().join(format!("versus-worker-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let payload = dir.join("payload.bin");
    std::fs::write(&payload, b"hello, versus").unwrap();
    let payload = payload.to_str().unwrap();

    let (responses, ending) = converse(
        test_worker(),
        &[
            setup(1, "echo", Some(payload)),
            json!({"type": "run", "id": 2, "data": {"iterations": 1}}),
            json!({"type": "run", "id": 3, "data": {"iterations": 64}}),
            json!({"type": "verify", "id": 4, "data": {}}),
            json!({"type": "teardown", "id": 5, "data": {}}),
            json!({"type": "shutdown", "id": 6, "data": {}}),
            // Never read: the worker stops at shutdown.
            json!({"type": "verify", "id": 7, "data": {}}),
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();

    assert_eq!(ending, Ending::Shutdown);
    assert_eq!(
        kinds(&responses),
        ["hello", "ready", "result", "result", "output", "done", "bye"]
    );
    let ids: Vec<_> = responses
        .iter()
        .map(|response| response["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(responses[2]["data"]["iterations"], 1);
    assert_eq!(responses[3]["data"]["iterations"], 64);
    assert!(responses[3]["data"]["elapsed_ns"].is_u64());
    // No counting allocator in this test binary, and Rust has no GC.
    assert_eq!(responses[3]["data"].get("alloc_bytes"), None);
    assert_eq!(responses[3]["data"].get("gc_count"), None);
    assert_eq!(
        responses[4]["data"],
        json!({"sha256": "5ae66703a136ee659cc3c05d1d68145137f052275ca692e9e403a63794ca84cb", "length": 13})
    );
    for response in [&responses[1], &responses[5], &responses[6]] {
        assert_eq!(
            response["data"],
            json!({}),
            "messages without fields carry an empty data object"
        );
    }
}

#[test]
fn verify_reports_digest_and_length_of_bytes_and_strings() {
    let (responses, _) = converse(
        test_worker(),
        &[
            setup(1, "noop", None),
            json!({"type": "verify", "id": 2, "data": {}}),
            setup(3, "text", None),
            json!({"type": "verify", "id": 4, "data": {}}),
        ],
    );
    assert_eq!(responses[2]["data"], json!({"sha256": EMPTY_SHA256, "length": 0}));
    // "héllo" is 6 bytes in UTF-8.
    assert_eq!(
        responses[4]["data"],
        json!({"sha256": "3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179", "length": 6})
    );
}

#[test]
fn each_failure_has_its_error_class_and_the_worker_keeps_serving() {
    // Each request with the answer it must get: a response type, or an
    // error class.
    let script = [
        (json!("this is not json"), "bad_request"),
        (json!({"type": "dance", "id": 2, "data": {}}), "bad_request"),
        (
            json!({"type": "run", "id": 3, "data": {"iterations": 1}}),
            "bad_request",
        ), // before setup
        (json!({"type": "verify", "id": 4, "data": {}}), "bad_request"), // before setup
        (json!({"type": "setup", "id": 5, "data": {"params": {}}}), "bad_request"), // no operation
        (setup(6, "no_such_operation", None), "unknown_operation"),
        (setup(7, "bad_setup", None), "setup_failed"),
        (
            json!({"type": "run", "id": 8, "data": {"iterations": 1}}),
            "bad_request",
        ), // failed setup
        (setup(9, "echo", None), "setup_failed"), // no input file
        (setup(10, "fails", None), "ready"),
        (
            json!({"type": "run", "id": 11, "data": {"iterations": 2}}),
            "operation_failed",
        ),
        (json!({"type": "verify", "id": 12, "data": {}}), "operation_failed"),
        (
            json!({"type": "run", "id": 13, "data": {"iterations": 0}}),
            "bad_request",
        ),
        (json!({"type": "teardown", "id": 14, "data": {}}), "done"),
        (json!({"type": "teardown", "id": 15, "data": {}}), "done"), // nothing set up
        (setup(16, "noop", None), "ready"),
    ];
    let requests: Vec<_> = script.iter().map(|(request, _)| request.clone()).collect();
    let (responses, ending) = converse(test_worker(), &requests);
    assert_eq!(ending, Ending::EndOfInput);
    assert_eq!(responses.len(), script.len() + 1);
    for ((request, expected), response) in script.iter().zip(&responses[1..]) {
        let answer = if response["type"] == "error" {
            error_class(response)
        } else {
            response["type"].as_str().unwrap()
        };
        assert_eq!(answer, *expected, "request {request} got {response}");
        // Ids are echoed on errors too; a line that is not JSON has none.
        assert_eq!(
            response["id"],
            request.get("id").cloned().unwrap_or(json!(0)),
            "{response}"
        );
    }
}

#[test]
fn ignores_unknown_fields_and_blank_lines() {
    let (responses, _) = converse(
        test_worker(),
        &[
            json!(""),
            json!({"type": "setup", "id": 1, "future": true,
                   "data": {"operation": "noop", "params": {}, "payload": null, "input": null, "colour": "blue"}}),
            json!("   "),
            json!({"type": "run", "id": 2, "data": {"iterations": 3, "hint": "ignored"}}),
        ],
    );
    assert_eq!(kinds(&responses), ["hello", "ready", "result"]);
    assert_eq!(responses[2]["id"], 2);
    assert_eq!(responses[2]["data"]["iterations"], 3);
}

#[test]
fn teardown_hooks_run_on_teardown_setup_and_end_of_input() {
    let torn_down = Rc::new(Cell::new(0));
    let counter = Rc::clone(&torn_down);
    let worker = Worker::new().operation_with_teardown(
        "counted",
        |_| Ok(()),
        |_: &mut ()| Ok(b""),
        move |()| {
            counter.set(counter.get() + 1);
            Ok(())
        },
    );
    let (responses, _) = converse(
        worker,
        &[
            setup(1, "counted", None),
            json!({"type": "teardown", "id": 2, "data": {}}),
            setup(3, "counted", None),
            // A second setup without teardown tears the first state down.
            setup(4, "counted", None),
        ],
    );
    assert_eq!(kinds(&responses), ["hello", "ready", "done", "ready", "ready"]);
    // Once on teardown, once on the repeated setup, once at end of input.
    assert_eq!(torn_down.get(), 3);
}

#[test]
fn a_failing_teardown_hook_is_an_error_answer() {
    let worker = Worker::new().operation_with_teardown(
        "leaky",
        |_| Ok(()),
        |_: &mut ()| Ok(b""),
        |()| Err("cannot release".into()),
    );
    let (responses, _) = converse(
        worker,
        &[
            setup(1, "leaky", None),
            json!({"type": "teardown", "id": 2, "data": {}}),
            setup(3, "leaky", None),
        ],
    );
    assert_eq!(error_class(&responses[2]), "operation_failed");
    assert_eq!(
        responses[3]["type"], "ready",
        "the state is forgotten even when its teardown fails"
    );
}

#[test]
#[should_panic(expected = "registered twice")]
fn registering_a_name_twice_is_a_programming_error() {
    let _ = Worker::new()
        .stateless("noop", || Ok(b""))
        .stateless("noop", || Ok(b""));
}

/// The worker on its own thread, talking through two real OS pipes, one
/// request at a time as the core does.
#[test]
fn a_conversation_through_real_pipes() {
    let (request_reader, mut request_writer) = io::pipe().unwrap();
    let (response_reader, response_writer) = io::pipe().unwrap();
    let (ended, ending) = mpsc::channel();
    let worker = thread::spawn(move || {
        let served = test_worker().serve(BufReader::new(request_reader), response_writer);
        ended.send(served.unwrap()).unwrap();
    });
    let mut responses = BufReader::new(response_reader);
    let mut ask = |request: Option<Value>| -> Value {
        if let Some(request) = request {
            writeln!(request_writer, "{request}").unwrap();
        }
        let mut line = String::new();
        responses.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "a response is a whole line: {line:?}");
        serde_json::from_str(&line).unwrap()
    };

    assert_eq!(ask(None)["type"], "hello");
    assert_eq!(
        ask(Some(setup(41, "noop", None))),
        json!({"type": "ready", "id": 41, "data": {}})
    );
    let result = ask(Some(json!({"type": "run", "id": 42, "data": {"iterations": 1000}})));
    assert_eq!(
        (&result["type"], &result["id"], &result["data"]["iterations"]),
        (&json!("result"), &json!(42), &json!(1000))
    );
    let output = ask(Some(json!({"type": "verify", "id": 43, "data": {}})));
    assert_eq!(output["data"], json!({"sha256": EMPTY_SHA256, "length": 0}));
    assert_eq!(
        ask(Some(json!({"type": "shutdown", "id": 44, "data": {}}))),
        json!({"type": "bye", "id": 44, "data": {}})
    );
    assert_eq!(ending.recv().unwrap(), Ending::Shutdown);
    worker.join().unwrap();
}

#[test]
fn closing_the_request_pipe_ends_the_worker() {
    let (request_reader, request_writer) = io::pipe().unwrap();
    let (response_reader, response_writer) = io::pipe().unwrap();
    let worker = thread::spawn(move || {
        test_worker()
            .serve(BufReader::new(request_reader), response_writer)
            .unwrap()
    });
    let mut hello = String::new();
    BufReader::new(response_reader).read_line(&mut hello).unwrap();
    assert!(hello.contains("\"hello\""));
    drop(request_writer);
    assert_eq!(worker.join().unwrap(), Ending::EndOfInput);
}
