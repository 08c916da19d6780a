//! The worker wire format (docs/worker-protocol.md): JSON lines with a
//! `{"type", "id", "data"}` envelope. Readers ignore unknown fields.

use serde_json::{Map, Value, json};

/// The protocol version this core speaks.
pub(super) const PROTOCOL_VERSION: u64 = 1;

/// Longest line accepted from a worker; anything longer is garbage.
pub(super) const MAX_LINE_BYTES: usize = 1 << 20;

/// One decoded message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub kind: String,
    pub id: Option<u64>,
    pub data: Map<String, Value>,
}

impl Message {
    pub fn encode(kind: &str, id: u64, data: Value) -> String {
        let mut line = json!({"type": kind, "id": id, "data": data}).to_string();
        line.push('\n');
        line
    }

    /// Decodes one line; `Err` says why it is not a protocol message.
    pub fn decode(line: &str) -> Result<Message, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
        let obj = v.as_object().ok_or("not a JSON object")?;
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .ok_or("no string field \"type\"")?
            .to_string();
        let id = obj.get("id").and_then(Value::as_u64);
        let data = match obj.get("data") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(_) => return Err("field \"data\" is not an object".into()),
        };
        Ok(Message { kind, id, data })
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        self.data.get(key).and_then(Value::as_str)
    }

    pub fn u64(&self, key: &str) -> Option<u64> {
        self.data.get(key).and_then(Value::as_u64)
    }
}

/// The worker's handshake.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hello {
    pub protocol: u64,
    pub language: String,
    pub runtime: String,
    pub library: String,
    pub operations: Vec<String>,
}

impl Hello {
    pub(crate) fn from_message(m: &Message) -> Result<Hello, String> {
        if m.kind != "hello" {
            return Err(format!("the first message was '{}', not 'hello'", m.kind));
        }
        let text = |k: &str| {
            m.str(k)
                .map(str::to_string)
                .ok_or(format!("hello has no string field \"{k}\""))
        };
        Ok(Hello {
            protocol: m.u64("protocol").ok_or("hello has no integer field \"protocol\"")?,
            language: text("language")?,
            runtime: text("runtime")?,
            library: text("library")?,
            operations: m
                .data
                .get("operations")
                .and_then(Value::as_array)
                .ok_or("hello has no array field \"operations\"")?
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_round_trip_ignores_unknown_fields() {
        let line = Message::encode("run", 7, json!({"iterations": 3}));
        assert!(line.ends_with('\n'));
        let m = Message::decode(line.trim()).unwrap();
        assert_eq!((m.kind.as_str(), m.id, m.u64("iterations")), ("run", Some(7), Some(3)));
        let m = Message::decode(r#"{"type":"result","id":1,"extra":true,"data":{"elapsed_ns":5,"new":"x"}}"#).unwrap();
        assert_eq!(m.u64("elapsed_ns"), Some(5));
    }

    #[test]
    fn garbage_is_rejected_with_a_reason() {
        for bad in ["hello", "[1,2]", r#"{"data":{}}"#, r#"{"type":"x","data":3}"#] {
            assert!(Message::decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hello_needs_every_field() {
        let ok = Message::decode(
            r#"{"type":"hello","id":0,"data":{"protocol":1,"language":"go","runtime":"go1.26","library":"x","operations":["a"]}}"#,
        )
        .unwrap();
        assert_eq!(Hello::from_message(&ok).unwrap().operations, ["a"]);
        let missing = Message::decode(r#"{"type":"hello","data":{"protocol":1}}"#).unwrap();
        assert!(Hello::from_message(&missing).is_err());
    }
}
