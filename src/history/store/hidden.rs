//! A results document's text with any password in its command line hidden,
//! as the text streams: what goes into the store (`history import` of a file
//! an older versus left) and what comes out of it (`history export`, every
//! read) never holds the store's password. The command line is the suite's
//! `command`, near the top of the document; only the text up to its end is
//! held (at most `HEAD_MAX`: a document with no command there has none),
//! the rest streams through untouched, and a document without a password
//! comes out byte for byte.

use std::io::{self, Read};
use std::ops::Range;

/// How much of a document's start is searched for its command line.
const HEAD_MAX: usize = 1 << 20;

/// `inner`, with the first `"command": "…"` string's passwords hidden.
pub(super) struct Hidden<R> {
    inner: R,
    /// The head read so far (hidden once complete), and how much of it was given out.
    head: Option<(Vec<u8>, usize)>,
}

impl<R: Read> Hidden<R> {
    pub(super) fn new(inner: R) -> Hidden<R> {
        Hidden { inner, head: None }
    }

    /// Reads until the command's string is whole (or the text ends), and hides its passwords.
    fn read_head(&mut self) -> io::Result<Vec<u8>> {
        let mut head = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            let n = self.inner.read(&mut chunk)?;
            head.extend_from_slice(&chunk[..n]);
            match command(&head) {
                Found::At(span) => return Ok(hide(head, span)),
                Found::Not => return Ok(head),
                Found::NotYet if n == 0 || head.len() > HEAD_MAX => return Ok(head),
                Found::NotYet => {}
            }
        }
    }
}

impl<R: Read> Read for Hidden<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.head.is_none() {
            self.head = Some((self.read_head()?, 0));
        }
        if let Some((head, given)) = &mut self.head
            && *given < head.len()
        {
            let n = buf.len().min(head.len() - *given);
            buf[..n].copy_from_slice(&head[*given..*given + n]);
            *given += n;
            return Ok(n);
        }
        self.inner.read(buf)
    }
}

enum Found {
    /// The command's JSON string, quotes included.
    At(Range<usize>),
    /// No command string in this document.
    Not,
    /// The text so far ends before the command's string does.
    NotYet,
}

/// Where the first `"command"` key's string value is in `text`.
fn command(text: &[u8]) -> Found {
    const KEY: &[u8] = b"\"command\"";
    let Some(key) = text.windows(KEY.len()).position(|w| w == KEY) else {
        return Found::NotYet;
    };
    let mut i = key + KEY.len();
    let skip = |i: &mut usize| {
        while text.get(*i).is_some_and(u8::is_ascii_whitespace) {
            *i += 1;
        }
    };
    skip(&mut i);
    match text.get(i) {
        None => return Found::NotYet,
        Some(b':') => i += 1,
        Some(_) => return Found::Not,
    }
    skip(&mut i);
    match text.get(i) {
        None => return Found::NotYet,
        Some(b'"') => {}
        Some(_) => return Found::Not,
    }
    let start = i;
    i += 1;
    while let Some(&b) = text.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Found::At(start..i + 1),
            _ => i += 1,
        }
    }
    Found::NotYet
}

/// `head` with the command string at `span` hidden; as it was when it holds no password.
fn hide(mut head: Vec<u8>, span: Range<usize>) -> Vec<u8> {
    let Ok(line) = serde_json::from_slice::<String>(&head[span.clone()]) else {
        return head;
    };
    let hidden = crate::base::redact::command_line(&line);
    if hidden == line {
        return head;
    }
    if let Ok(text) = serde_json::to_string(&hidden) {
        head.splice(span, text.into_bytes());
    }
    head
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(text: &str) -> String {
        let mut out = String::new();
        // A reader that gives a few bytes at a time, so the head is read in pieces.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(3);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        Hidden::new(Trickle(text.as_bytes())).read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn the_command_lines_password_is_hidden_and_the_rest_streams_through() {
        let text = "{\n  \"suite\": {\n    \"name\": \"s\",\n    \"command\": \"versus run --store postgres://u:pw\\\"x@h/db\",\n    \"hash\": \"h\"\n  },\n  \"cells\": []\n}\n";
        let out = through(text);
        assert!(!out.contains("pw"), "{out}");
        // The line cannot be split as a shell would (an odd `"`): hidden to the URL's end.
        assert!(
            out.contains(r#""command": "versus run --store postgres://u:***@h/db""#),
            "{out}"
        );
        assert!(out.ends_with("\"hash\": \"h\"\n  },\n  \"cells\": []\n}\n"), "{out}");
    }

    #[test]
    fn a_document_without_a_password_comes_out_byte_for_byte() {
        for text in [
            "{\"suite\":{\"command\":\"versus run s.toml --out 'a b'\"}}",
            "{\"suite\":{\"command\":null}}",
            "{\"suite\":{}}",
            "",
        ] {
            assert_eq!(through(text), text);
        }
    }
}
