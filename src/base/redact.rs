//! Passwords a command line can carry, hidden before it is recorded or shown.
//! versus records the command line that made a run (results.json, the
//! journal, reports, the history store), and `--store` can hold the store's
//! password in every form PostgreSQL accepts: in a URL's user information
//! (`postgres://user:pass@host`, with `@`, `:` or `%40` inside it), as a URL
//! parameter (`?password=…`, `&sslpassword=…`, the name percent-encoded or
//! not), or in a libpq keyword/value string (`host=h password=… `, the value
//! quoted or with escaped spaces). Each is replaced by `***`, erring towards
//! hiding more: everything up to the last `@` of a URL is user information.
//! `without_secrets` gives a store's location back without them, to be
//! pasted into a command while the password comes from elsewhere.

use std::borrow::Cow;
use std::ops::Range;

/// What a hidden secret reads as.
pub const HIDDEN: &str = "***";

/// A recorded command line (words quoted as a shell reads them) with every
/// password hidden; the line itself when it holds none. A line a shell
/// cannot split is taken as one word, so a URL in it hides up to its end.
pub fn command_line(line: &str) -> Cow<'_, str> {
    let Ok(words) = shell_words::split(line) else {
        return word(line);
    };
    let hidden: Vec<Cow<str>> = words.iter().map(|w| word(w)).collect();
    if hidden.iter().all(|w| matches!(w, Cow::Borrowed(_))) {
        return Cow::Borrowed(line);
    }
    Cow::Owned(
        hidden
            .iter()
            .map(|w| shell_words::quote(w).into_owned())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// One word (an argument as given, `--store=URL` included) with every
/// password in it hidden.
pub fn word(text: &str) -> Cow<'_, str> {
    let spans = secrets(text);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        out.push_str(&text[at..span.start]);
        out.push_str(HIDDEN);
        at = span.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// Where `text` (a word) holds a password: each span, in order, merged where they overlap.
fn secrets(text: &str) -> Vec<Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let (head, mut spans) = match url_start(&lower) {
        Some((start, rest)) => (start, url_secrets(text, rest)),
        None => (text.len(), vec![]),
    };
    spans.extend(keyword_secrets(&text[..head]));
    spans.sort_by_key(|s| s.start);
    let mut merged: Vec<Range<usize>> = Vec::new();
    for s in spans.into_iter().filter(|s| !s.is_empty()) {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    merged
}

/// Where a PostgreSQL URL starts in `lower` and where its part after `://` does.
fn url_start(lower: &str) -> Option<(usize, usize)> {
    ["postgresql://", "postgres://"]
        .iter()
        .filter_map(|scheme| lower.find(scheme).map(|i| (i, i + scheme.len())))
        .min()
}

/// The passwords of the URL whose part after `://` starts at `rest` and
/// which runs to the end of `text`: its parameters named `…password`, and
/// its user information's password, up to the last `@` not inside one.
fn url_secrets(text: &str, rest: usize) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    if let Some(q) = text[rest..].find('?').map(|q| rest + q) {
        let mut start = q + 1;
        for piece in text[q + 1..].split('&') {
            let end = start + piece.len();
            if let Some(eq) = piece.find('=')
                && is_password(&decoded(&piece[..eq]))
            {
                spans.push(start + eq + 1..end);
            }
            start = end + 1;
        }
    }
    let inside = |i: usize| spans.iter().any(|s: &Range<usize>| s.contains(&i));
    let at = text[rest..]
        .match_indices('@')
        .map(|(i, _)| rest + i)
        .rfind(|&i| !inside(i));
    if let Some(at) = at
        && let Some(colon) = text[rest..at].find(':')
    {
        spans.push(rest + colon + 1..at);
    }
    spans
}

/// Whether a parameter or keyword name is a password's (`password`,
/// `sslpassword`, `PGPASSWORD`, `--password`, …).
fn is_password(name: &str) -> bool {
    name.trim().to_ascii_lowercase().ends_with("password")
}

/// `%XX` sequences decoded (a URL parameter's name may be encoded).
pub(crate) fn decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The values of `…password = value` in `text` (libpq's keyword/value
/// form, or a flag): a quoted value to its closing quote, else to the first
/// whitespace not escaped by a backslash.
fn keyword_secrets(text: &str) -> Vec<Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find("password").map(|i| from + i + "password".len()) {
        from = found;
        let after_key = found + blank(&text[found..]);
        if !text[after_key..].starts_with('=') {
            continue;
        }
        let start = after_key + 1 + blank(&text[after_key + 1..]);
        let end = start + value_len(&text[start..]);
        spans.push(start..end);
        from = end.max(from);
    }
    spans
}

/// The length of the whitespace `text` starts with.
fn blank(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// The length of the keyword value `text` starts with.
fn value_len(text: &str) -> usize {
    let quoted = text.starts_with('\'');
    let mut chars = text.char_indices().skip(usize::from(quoted));
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' if quoted => return i + 1,
            c if c.is_whitespace() && !quoted => return i,
            _ => {}
        }
    }
    text.len()
}

/// A store's location (a URL or a keyword/value string) without its
/// passwords at all, for a command to paste; the password then comes from
/// elsewhere (`PGPASSWORD`). Built from the hidden form, so it holds no
/// secret even where it cannot be tidied.
pub fn without_secrets(location: &str) -> String {
    let hidden = word(location).into_owned();
    let lower = hidden.to_ascii_lowercase();
    if let Some((_, rest)) = url_start(&lower) {
        let (base, query) = hidden.split_once('?').unwrap_or((&hidden, ""));
        let Some(after) = base.get(rest..) else {
            return hidden;
        };
        let base = format!("{}{}", &base[..rest], after.replacen(":***@", "@", 1));
        let kept: Vec<&str> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .filter(|p| !(p.ends_with(HIDDEN) && p.split_once('=').is_some_and(|(k, _)| is_password(&decoded(k)))))
            .collect();
        return if kept.is_empty() {
            base
        } else {
            format!("{base}?{}", kept.join("&"))
        };
    }
    let mut out = hidden.clone();
    for span in keyword_secrets(&hidden).into_iter().rev() {
        let key_start = hidden[..span.start]
            .trim_end()
            .trim_end_matches('=')
            .trim_end()
            .rfind(char::is_whitespace)
            .map_or(0, |i| i + 1);
        out.replace_range(key_start..span.end, "");
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_store_password_is_hidden() {
        let cases = [
            ("postgres://u:secret@h:5/db", "postgres://u:***@h:5/db"),
            ("postgres://u:p@ss:w/rd@h/db", "postgres://u:***@h/db"),
            ("postgres://u:p%40ss@h/db", "postgres://u:***@h/db"),
            ("POSTGRESQL://u:secret@h/db", "POSTGRESQL://u:***@h/db"),
            ("postgres://:secret@h/db", "postgres://:***@h/db"),
            ("postgres://u@h/db?password=secret", "postgres://u@h/db?password=***"),
            (
                "postgres://u@h/db?sslmode=require&sslpassword=s&pass%77ord=t",
                "postgres://u@h/db?sslmode=require&sslpassword=***&pass%77ord=***",
            ),
            ("postgres://u@h/db?password=a@b", "postgres://u@h/db?password=***"),
            ("postgres://u:a?b@h/db?password=c", "postgres://u:***@h/db?password=***"),
            ("--store=postgres://u:secret@h/db", "--store=postgres://u:***@h/db"),
            ("host=h password=secret dbname=d", "host=h password=*** dbname=d"),
            (
                "host=h password = 'a b\\' c' dbname=d",
                "host=h password = *** dbname=d",
            ),
            ("host=h password=a\\ b dbname=d", "host=h password=*** dbname=d"),
            ("PGPASSWORD=secret", "PGPASSWORD=***"),
            (
                "postgres://u:secret@h:5/db?sslmode=verify-full&sslrootcert=/etc/ca.pem",
                "postgres://u:***@h:5/db?sslmode=verify-full&sslrootcert=/etc/ca.pem",
            ),
            (
                "host=h password=secret sslmode=verify-ca sslrootcert='/my ca.pem'",
                "host=h password=*** sslmode=verify-ca sslrootcert='/my ca.pem'",
            ),
        ];
        for (given, hidden) in cases {
            assert_eq!(word(given), hidden, "{given}");
        }
    }

    #[test]
    fn what_holds_no_password_is_left_as_it_is() {
        for text in [
            "postgres://u@h:5/db",
            "postgres://h/db",
            "host=h user=u dbname=d sslkey=/k",
            "postgres://u@h:5/db?sslmode=verify-full&sslrootcert=/etc/ca.pem",
            "host=h sslmode=require sslrootcert=system",
            "--password-file=x",
            "results/report.md",
        ] {
            assert!(matches!(word(text), Cow::Borrowed(_)), "{text}");
        }
        let line = "versus run s.toml --out 'my results'";
        assert!(matches!(command_line(line), Cow::Borrowed(_)));
    }

    #[test]
    fn a_command_line_is_hidden_word_by_word_and_stays_pasteable() {
        let line = "versus run s.toml --store \"host=h password='a b' dbname=d\" --out o";
        assert_eq!(
            command_line(line),
            "versus run s.toml --store 'host=h password=*** dbname=d' --out o"
        );
        let line = "versus run s.toml --store postgres://u:secret@h/db";
        assert_eq!(command_line(line), "versus run s.toml --store 'postgres://u:***@h/db'");
        // A line a shell cannot split hides to its end.
        assert_eq!(
            command_line("versus 'run postgres://u:s@h"),
            "versus 'run postgres://u:***@h"
        );
    }

    #[test]
    fn a_location_without_its_secrets_can_be_pasted() {
        let cases = [
            ("postgres://u:secret@h:5/db", "postgres://u@h:5/db"),
            ("postgres://u@h/db?password=s", "postgres://u@h/db"),
            (
                "postgres://u@h/db?password=s&sslmode=require",
                "postgres://u@h/db?sslmode=require",
            ),
            (
                "postgres://u@h/db?sslmode=require&sslpassword=s",
                "postgres://u@h/db?sslmode=require",
            ),
            ("host=h port=1 password='a b' dbname=d", "host=h port=1 dbname=d"),
            ("host=h password = s dbname=d", "host=h dbname=d"),
            ("postgres://u@h/db", "postgres://u@h/db"),
            (
                "postgres://u:s@h/db?sslmode=verify-full&sslrootcert=/ca.pem",
                "postgres://u@h/db?sslmode=verify-full&sslrootcert=/ca.pem",
            ),
            (
                "host=h password=s sslrootcert=/ca.pem sslmode=verify-ca",
                "host=h sslrootcert=/ca.pem sslmode=verify-ca",
            ),
        ];
        for (given, bare) in cases {
            assert_eq!(without_secrets(given), bare, "{given}");
        }
    }
}
