//! The wire format of docs/worker-protocol.md, version 1: one JSON object per
//! line, `{"type": ..., "id": ..., "data": {...}}`.
//!
//! Decoding is lenient where the protocol asks for it (unknown fields are
//! ignored at every level) and strict where a wrong value would make the
//! measurement meaningless (`iterations` must be an integer of at least 1).
//! Every way a line can fail to decode is a [`BadRequest`], answered with the
//! `bad_request` error class; the worker keeps serving after it.

use std::fmt;
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The protocol version this library speaks, sent in `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The closed set of error classes of protocol version 1. The core maps a
/// class to a cell outcome and never looks at the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    /// `setup` names an operation that is not registered.
    UnknownOperation,
    /// The setup hook returned an error or panicked.
    SetupFailed,
    /// The operation returned an error or panicked during `run` or `verify`
    /// (and, in this library, the teardown hook did).
    OperationFailed,
    /// A line that is not a request: not JSON, an unknown `type`, a missing
    /// or mistyped field, or `run`/`verify` before `setup`.
    BadRequest,
    /// Reserved for version negotiation; this library never sends it.
    UnsupportedVersion,
    /// Anything else inside the library.
    Internal,
}

impl ErrorClass {
    /// The class as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::UnknownOperation => "unknown_operation",
            ErrorClass::SetupFailed => "setup_failed",
            ErrorClass::OperationFailed => "operation_failed",
            ErrorClass::BadRequest => "bad_request",
            ErrorClass::UnsupportedVersion => "unsupported_version",
            ErrorClass::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request from the core, decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Setup(SetupRequest),
    Run { iterations: u64 },
    Verify,
    Teardown,
    Shutdown,
}

/// The data of a `setup` request.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SetupRequest {
    /// The registered operation to prepare.
    pub operation: String,
    /// The cell's matrix parameters: name to string, number or boolean.
    /// Absent or `null` reads as no parameters.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub params: Map<String, Value>,
    /// Path of the payload file, if the cell has one.
    #[serde(default)]
    pub payload: Option<PathBuf>,
    /// Path of the operation's input: the payload or an earlier operation's
    /// output.
    #[serde(default)]
    pub input: Option<PathBuf>,
}

#[derive(Deserialize)]
struct RunData {
    iterations: u64,
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Map<String, Value>, D::Error> {
    Ok(Option::<Map<String, Value>>::deserialize(deserializer)?.unwrap_or_default())
}

/// Why a line is not a request. Answered with [`ErrorClass::BadRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRequest(pub String);

impl fmt::Display for BadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One decoded line: the id to echo and the request, or why it is not one.
///
/// The id is the request's `id` when the line is a JSON object carrying an
/// integer `id`, and 0 otherwise (a line that is not JSON has no id to echo).
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    pub id: u64,
    pub request: Result<Request, BadRequest>,
}

/// Decodes one request line (with or without its trailing newline).
pub fn decode_request(line: &[u8]) -> Incoming {
    let envelope = match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(envelope)) => envelope,
        Ok(other) => return bad(0, format!("a request is a JSON object, not {}", json_kind(&other))),
        Err(error) => return bad(0, format!("not a JSON line: {error}")),
    };
    let id = match envelope.get("id") {
        None | Some(Value::Null) => 0,
        Some(value) => match value.as_u64() {
            Some(id) => id,
            None => return bad(0, format!("`id` must be a non-negative integer, not {value}")),
        },
    };
    let kind = match envelope.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => return bad(id, format!("`type` must be a string, not {}", json_kind(other))),
        None => return bad(id, "missing field `type`".to_owned()),
    };
    let data = match envelope.get("data") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(data @ Value::Object(_)) => data.clone(),
        Some(other) => return bad(id, format!("`data` must be an object, not {}", json_kind(other))),
    };
    let request = match kind {
        "setup" => parse_data::<SetupRequest>(kind, data).map(Request::Setup),
        "run" => parse_data::<RunData>(kind, data).and_then(|run| {
            if run.iterations == 0 {
                Err(BadRequest("`run` needs `iterations` of at least 1".to_owned()))
            } else {
                Ok(Request::Run {
                    iterations: run.iterations,
                })
            }
        }),
        "verify" => Ok(Request::Verify),
        "teardown" => Ok(Request::Teardown),
        "shutdown" => Ok(Request::Shutdown),
        unknown => Err(BadRequest(format!("unknown request type `{unknown}`"))),
    };
    Incoming { id, request }
}

fn bad(id: u64, message: String) -> Incoming {
    Incoming {
        id,
        request: Err(BadRequest(message)),
    }
}

fn parse_data<T: DeserializeOwned>(kind: &str, data: Value) -> Result<T, BadRequest> {
    serde_json::from_value(data).map_err(|error| BadRequest(format!("bad `{kind}` data: {error}")))
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The data of the worker's `hello`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hello {
    pub protocol: u32,
    pub language: String,
    pub runtime: String,
    pub library: String,
    pub operations: Vec<String>,
}

/// The data of a `result`: one batch of `iterations` calls.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunResult {
    pub iterations: u64,
    /// Nanoseconds for the whole batch, by the monotonic clock.
    pub elapsed_ns: u64,
    /// Bytes allocated during the batch, only when the counting allocator is
    /// installed (see `CountingAllocator`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_bytes: Option<u64>,
}

/// The data of an `output`: what one call of the operation returned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// Lowercase hex SHA-256 of the returned bytes.
    pub sha256: String,
    /// Number of returned bytes.
    pub length: u64,
}

/// The data of an `error`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorReply {
    pub class: ErrorClass,
    pub message: String,
}

/// A message from the worker to the core.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    Hello(Hello),
    Ready,
    Result(RunResult),
    Output(Output),
    Done,
    Bye,
    Error(ErrorReply),
}

impl Response {
    /// An `error` response.
    pub fn error(class: ErrorClass, message: impl Into<String>) -> Response {
        Response::Error(ErrorReply {
            class,
            message: message.into(),
        })
    }

    /// The message's `type` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Response::Hello(_) => "hello",
            Response::Ready => "ready",
            Response::Result(_) => "result",
            Response::Output(_) => "output",
            Response::Done => "done",
            Response::Bye => "bye",
            Response::Error(_) => "error",
        }
    }
}

/// Encodes a response as one line, `{"type":...,"id":...,"data":{...}}\n`.
/// Messages without fields carry an empty `data` object.
pub fn encode_response(id: u64, response: &Response) -> Vec<u8> {
    let data = match response {
        Response::Hello(hello) => serde_json::to_string(hello),
        Response::Result(result) => serde_json::to_string(result),
        Response::Output(output) => serde_json::to_string(output),
        Response::Error(error) => serde_json::to_string(error),
        Response::Ready | Response::Done | Response::Bye => Ok("{}".to_owned()),
    }
    // These types hold only strings, integers and string-keyed maps, which
    // always serialize.
    .expect("a response always serializes to JSON");
    format!("{{\"type\":\"{}\",\"id\":{id},\"data\":{data}}}\n", response.kind()).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decode(line: &str) -> Incoming {
        decode_request(line.as_bytes())
    }

    fn bad_request(incoming: &Incoming) -> bool {
        incoming.request.is_err()
    }

    #[test]
    fn decodes_every_request_type() {
        let setup = decode(
            r#"{"type":"setup","id":3,"data":{"operation":"sha256","params":{"size":"1k","level":3,"fast":true},"payload":"/tmp/p","input":"/tmp/i"}}"#,
        );
        assert_eq!(setup.id, 3);
        let Ok(Request::Setup(setup)) = setup.request else {
            panic!("not a setup: {setup:?}")
        };
        assert_eq!(setup.operation, "sha256");
        assert_eq!(setup.params.get("size"), Some(&json!("1k")));
        assert_eq!(setup.params.get("level"), Some(&json!(3)));
        assert_eq!(setup.params.get("fast"), Some(&json!(true)));
        assert_eq!(setup.payload, Some(PathBuf::from("/tmp/p")));
        assert_eq!(setup.input, Some(PathBuf::from("/tmp/i")));

        let run = decode(r#"{"type":"run","id":4,"data":{"iterations":1000}}"#);
        assert_eq!(
            run,
            Incoming {
                id: 4,
                request: Ok(Request::Run { iterations: 1000 })
            }
        );
        assert_eq!(
            decode(r#"{"type":"verify","id":5,"data":{}}"#).request,
            Ok(Request::Verify)
        );
        assert_eq!(
            decode(r#"{"type":"teardown","id":6,"data":{}}"#).request,
            Ok(Request::Teardown)
        );
        assert_eq!(
            decode(r#"{"type":"shutdown","id":7,"data":{}}"#).request,
            Ok(Request::Shutdown)
        );
    }

    #[test]
    fn setup_paths_and_params_may_be_null() {
        let incoming =
            decode(r#"{"type":"setup","id":1,"data":{"operation":"noop","params":null,"payload":null,"input":null}}"#);
        let Ok(Request::Setup(setup)) = incoming.request else {
            panic!("not a setup")
        };
        assert!(setup.params.is_empty());
        assert_eq!(setup.payload, None);
        assert_eq!(setup.input, None);
    }

    #[test]
    fn ignores_unknown_fields_at_every_level() {
        let incoming = decode(
            r#"{"type":"setup","id":9,"future":{"x":1},"data":{"operation":"noop","params":{},"payload":null,"input":null,"colour":"blue"}}"#,
        );
        assert_eq!(incoming.id, 9);
        assert!(matches!(incoming.request, Ok(Request::Setup(ref s)) if s.operation == "noop"));

        let run = decode(r#"{"type":"run","id":10,"data":{"iterations":3,"hint":"ignored"},"trace":[1,2]}"#);
        assert_eq!(run.request, Ok(Request::Run { iterations: 3 }));
    }

    #[test]
    fn data_may_be_absent_when_a_request_has_no_fields() {
        assert_eq!(decode(r#"{"type":"shutdown","id":2}"#).request, Ok(Request::Shutdown));
        assert_eq!(
            decode(r#"{"type":"verify","id":2,"data":null}"#).request,
            Ok(Request::Verify)
        );
    }

    #[test]
    fn lines_that_are_not_requests_are_bad_requests() {
        for line in [
            "this is not json",
            "",
            "[1,2,3]",
            r#"{"id":1,"data":{}}"#,
            r#"{"type":7,"id":1}"#,
            r#"{"type":"dance","id":1,"data":{}}"#,
            r#"{"type":"run","id":1,"data":{}}"#,
            r#"{"type":"run","id":1,"data":{"iterations":0}}"#,
            r#"{"type":"run","id":1,"data":{"iterations":-5}}"#,
            r#"{"type":"run","id":1,"data":{"iterations":"10"}}"#,
            r#"{"type":"run","id":1,"data":[]}"#,
            r#"{"type":"setup","id":1,"data":{"params":{}}}"#,
            r#"{"type":"setup","id":1,"data":{"operation":"x","params":[]}}"#,
            r#"{"type":"run","id":"seven","data":{"iterations":1}}"#,
        ] {
            assert!(bad_request(&decode(line)), "accepted {line:?}");
        }
    }

    #[test]
    fn a_bad_request_echoes_the_id_when_it_can_read_one() {
        assert_eq!(decode(r#"{"type":"dance","id":12,"data":{}}"#).id, 12);
        assert_eq!(decode(r#"{"type":"run","id":13,"data":{}}"#).id, 13);
        assert_eq!(decode("not json").id, 0);
    }

    #[test]
    fn encodes_the_envelope_on_one_line() {
        let line = encode_response(42, &Response::Ready);
        assert_eq!(line, b"{\"type\":\"ready\",\"id\":42,\"data\":{}}\n");

        let line = encode_response(
            7,
            &Response::Result(RunResult {
                iterations: 1000,
                elapsed_ns: 123_456,
                alloc_bytes: None,
            }),
        );
        let value: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(
            value,
            json!({"type": "result", "id": 7, "data": {"iterations": 1000, "elapsed_ns": 123456}})
        );
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(line.ends_with(b"\n"));
    }

    #[test]
    fn encodes_every_response() {
        let hello = Response::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            language: "rust".to_owned(),
            runtime: "rustc 1.0.0".to_owned(),
            library: "versus-worker-rust 0.1.0".to_owned(),
            operations: vec!["a\nb".to_owned(), "c".to_owned()],
        });
        let cases = [
            (
                hello,
                json!({"type": "hello", "id": 0, "data": {"protocol": 1, "language": "rust", "runtime": "rustc 1.0.0",
                    "library": "versus-worker-rust 0.1.0", "operations": ["a\nb", "c"]}}),
            ),
            (
                Response::Result(RunResult {
                    iterations: 2,
                    elapsed_ns: 5,
                    alloc_bytes: Some(64),
                }),
                json!({"type": "result", "id": 0, "data": {"iterations": 2, "elapsed_ns": 5, "alloc_bytes": 64}}),
            ),
            (
                Response::Output(Output {
                    sha256: "ab".to_owned(),
                    length: 1,
                }),
                json!({"type": "output", "id": 0, "data": {"sha256": "ab", "length": 1}}),
            ),
            (Response::Done, json!({"type": "done", "id": 0, "data": {}})),
            (Response::Bye, json!({"type": "bye", "id": 0, "data": {}})),
            (
                Response::error(ErrorClass::SetupFailed, "no \"input\"\n"),
                json!({"type": "error", "id": 0, "data": {"class": "setup_failed", "message": "no \"input\"\n"}}),
            ),
        ];
        for (response, expected) in cases {
            let line = encode_response(0, &response);
            // One line: newlines inside strings are escaped.
            assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1, "{response:?}");
            assert_eq!(serde_json::from_slice::<Value>(&line).unwrap(), expected);
        }
    }

    #[test]
    fn error_classes_have_their_wire_names() {
        let classes = [
            (ErrorClass::UnknownOperation, "unknown_operation"),
            (ErrorClass::SetupFailed, "setup_failed"),
            (ErrorClass::OperationFailed, "operation_failed"),
            (ErrorClass::BadRequest, "bad_request"),
            (ErrorClass::UnsupportedVersion, "unsupported_version"),
            (ErrorClass::Internal, "internal"),
        ];
        for (class, name) in classes {
            assert_eq!(class.as_str(), name);
            assert_eq!(serde_json::to_value(class).unwrap(), json!(name));
        }
    }
}
