//! One escaping function per place text goes, for text versus did not
//! write itself: names from a suite or a results file, a failing program's
//! standard error, a worker's message, a store's suite names. A terminal
//! obeys escape sequences (a clipboard write, a new window title, a cleared
//! screen); a spreadsheet runs a cell that starts with `=`; Markdown turns
//! a `|` into a new column. Every such text passes through the function of
//! its sink on its way out; control characters are shown, never sent.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is a control character (C0, DEL or C1) other than a newline or a tab.
fn is_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `c` as visible text: `\x1b`, `\u{9b}`.
fn shown(out: &mut String, c: char) {
    let code = u32::from(c);
    if code < 0x100 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

/// Text for a file others read (Markdown, HTML, CSV, a pull-request
/// comment): every control character but newline and tab shown as `\xNN`.
pub fn file_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) { shown(&mut out, c) } else { out.push(c) }
    }
    Cow::Owned(out)
}

/// The length of the colour sequence (`ESC [ digits ; … m`, SGR) at the
/// start of `rest`, if one is there.
fn colour_at(rest: &str) -> Option<usize> {
    let body = rest.strip_prefix("\u{1b}[")?;
    let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    (body[end..].starts_with('m')).then_some(2 + end + 1)
}

/// Text for a terminal: as `file_text`, except that colour sequences
/// (SGR, which versus's own coloured report uses) pass. Anything else a
/// terminal would act on — OSC (title, clipboard), cursor moves, clearing
/// the screen — is shown, not sent.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if let Some(n) = (c == '\u{1b}').then(|| colour_at(&text[i..])).flatten() {
            out.push_str(&text[i..i + n]);
            i += n;
            continue;
        }
        if is_control(c) {
            shown(&mut out, c)
        } else {
            out.push(c)
        }
        i += c.len_utf8();
    }
    Cow::Owned(out)
}

/// A CSV field: as `file_text`, and a field a spreadsheet would read as a
/// formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return)
/// gets a leading `'`, as OWASP advises. Only for text fields: a number
/// such as `-3` is written as a number.
pub fn csv_field(text: &str) -> String {
    let text = file_text(text);
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.into_owned()
    }
}

/// `text` as a Markdown code span that nothing inside can close: a fence
/// of more backticks than any run in it (CommonMark), padded when the text
/// starts or ends with one. In a table cell `|` still ends the cell, even
/// inside a span (GitHub's tables), so it is escaped as `\|`, which GitHub
/// shows as `|` there.
pub fn markdown_code(text: &str, in_table: bool) -> String {
    let text = file_text(text).replace(['\n', '\r'], " ");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    let text = if in_table { text.replace('|', "\\|") } else { text };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Text for HTML element content and attribute values (a hand-written
/// page: the trend, the site): `& < > " '` as entities. The HTML report
/// has minijinja's automatic escaping instead.
pub fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "ok\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J\u{9b}31m end";

    #[test]
    fn a_terminal_gets_colours_and_no_other_sequence() {
        let shown = terminal(HOSTILE);
        assert!(!shown.contains(['\u{1b}', '\u{7}', '\u{9b}']), "{shown}");
        assert_eq!(shown, "ok\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\\x9b31m end");
        let coloured = "\u{1b}[1;32mfaster\u{1b}[0m\n\tnext";
        assert_eq!(terminal(coloured), coloured);
    }

    #[test]
    fn files_get_no_control_character_at_all() {
        assert_eq!(file_text("a\u{1b}[31mb\nc\td"), "a\\x1b[31mb\nc\td");
        assert!(matches!(file_text("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_spreadsheet_reads_a_formula_as_text() {
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("-cmd"), "'-cmd");
        assert_eq!(csv_field("go"), "go");
    }

    #[test]
    fn a_code_span_holds_whatever_is_inside() {
        assert_eq!(markdown_code("a`b", false), "``a`b``");
        assert_eq!(markdown_code("`x`", false), "`` `x` ``");
        assert_eq!(markdown_code("a|b", true), "`a\\|b`");
        assert_eq!(markdown_code("plain", true), "`plain`");
    }
}
