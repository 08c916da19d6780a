//! `{name}` placeholders in commands. A command is split into words first
//! (like a shell would) and each word is a template, so a substituted path
//! with spaces stays one argument. `{{` and `}}` stand for literal braces.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Var(String),
}

/// A parsed string with placeholders.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pieces: Vec<Piece>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TemplateError {
    #[error("unclosed '{{' at byte {0} (write '{{{{' for a literal brace)")]
    Unclosed(usize),
    #[error("unmatched '}}' at byte {0} (write '}}}}' for a literal brace)")]
    Unmatched(usize),
    #[error("empty placeholder '{{}}' at byte {0}")]
    Empty(usize),
}

impl Template {
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match c {
                '{' if chars.peek().map(|p| p.1) == Some('{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek().map(|p| p.1) == Some('}') => {
                    chars.next();
                    literal.push('}');
                }
                '{' => {
                    let mut name = String::new();
                    loop {
                        match chars.next() {
                            Some((_, '}')) => break,
                            Some((_, ch)) => name.push(ch),
                            None => return Err(TemplateError::Unclosed(at)),
                        }
                    }
                    let name = name.trim().to_string();
                    if name.is_empty() {
                        return Err(TemplateError::Empty(at));
                    }
                    if !literal.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut literal)));
                    }
                    pieces.push(Piece::Var(name));
                }
                '}' => return Err(TemplateError::Unmatched(at)),
                other => literal.push(other),
            }
        }
        if !literal.is_empty() {
            pieces.push(Piece::Text(literal));
        }
        Ok(Template { pieces })
    }

    /// Names of the placeholders used, in order of appearance.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Var(n) => Some(n.as_str()),
            Piece::Text(_) => None,
        })
    }

    /// Substitutes every placeholder; `lookup` returns `None` for an unknown name,
    /// which is reported as the error.
    pub fn render_with(&self, lookup: impl Fn(&str) -> Option<String>) -> Result<String, String> {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Var(name) => out.push_str(&lookup(name).ok_or_else(|| name.clone())?),
            }
        }
        Ok(out)
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => f.write_str(&t.replace('{', "{{").replace('}', "}}"))?,
                Piece::Var(n) => write!(f, "{{{n}}}")?,
            }
        }
        Ok(())
    }
}

/// A command line: either words to exec directly, or one string for `sh -c`.
#[derive(Debug, Clone, PartialEq)]
pub enum CommandTemplate {
    Words(Vec<Template>),
    Shell(Template),
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CommandError {
    #[error("cannot split into words: {0} (check the quotes)")]
    Quotes(String),
    #[error("the command is empty")]
    Empty,
    #[error(transparent)]
    Template(#[from] TemplateError),
}

impl CommandTemplate {
    pub fn parse(text: &str, shell: bool) -> Result<Self, CommandError> {
        if shell {
            if text.trim().is_empty() {
                return Err(CommandError::Empty);
            }
            return Ok(CommandTemplate::Shell(Template::parse(text)?));
        }
        let words = shell_words::split(text).map_err(|e| CommandError::Quotes(e.to_string()))?;
        if words.is_empty() {
            return Err(CommandError::Empty);
        }
        let words = words
            .iter()
            .map(|w| Template::parse(w))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CommandTemplate::Words(words))
    }

    pub fn names(&self) -> Vec<&str> {
        match self {
            CommandTemplate::Words(ws) => ws.iter().flat_map(|w| w.names()).collect(),
            CommandTemplate::Shell(t) => t.names().collect(),
        }
    }

    /// Renders to an argv. In shell mode values are shell-quoted so a path
    /// with spaces or quotes cannot change the command's structure.
    /// A word made only of placeholders that renders empty is dropped, so an
    /// optional flag can be a variable that is sometimes "".
    pub fn render_with(&self, lookup: impl Fn(&str) -> Option<String>) -> Result<Vec<String>, String> {
        match self {
            CommandTemplate::Words(words) => {
                let mut argv = Vec::with_capacity(words.len());
                for w in words {
                    let text = w.render_with(&lookup)?;
                    let only_vars = !w.pieces.is_empty() && w.pieces.iter().all(|p| matches!(p, Piece::Var(_)));
                    if !(text.is_empty() && only_vars) {
                        argv.push(text);
                    }
                }
                Ok(argv)
            }
            CommandTemplate::Shell(t) => {
                let quoted = |name: &str| lookup(name).map(|v| shell_words::quote(&v).into_owned());
                let mut out = String::new();
                for piece in &t.pieces {
                    match piece {
                        Piece::Text(s) => out.push_str(s),
                        Piece::Var(n) => out.push_str(&quoted(n).ok_or_else(|| n.clone())?),
                    }
                }
                Ok(vec!["sh".into(), "-c".into(), out])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(name: &str) -> Option<String> {
        match name {
            "payload" => Some("/tmp/my payload.bin".into()),
            "size" => Some("1KB".into()),
            "encrypt.out" => Some("/w/enc.age".into()),
            _ => None,
        }
    }

    #[test]
    fn words_are_split_before_substitution() {
        let c = CommandTemplate::parse("gzip -c '{payload}' --x={size}", false).unwrap();
        assert_eq!(
            c.render_with(vars).unwrap(),
            vec!["gzip", "-c", "/tmp/my payload.bin", "--x=1KB"]
        );
    }

    #[test]
    fn chained_outputs_and_literal_braces() {
        let c = CommandTemplate::parse("age -d {encrypt.out} {{x}}", false).unwrap();
        assert_eq!(c.render_with(vars).unwrap(), vec!["age", "-d", "/w/enc.age", "{x}"]);
        assert_eq!(c.names(), vec!["encrypt.out"]);
    }

    #[test]
    fn a_word_that_is_an_empty_variable_disappears() {
        let c = CommandTemplate::parse("age {flag} -o x '' {size}", false).unwrap();
        let lookup = |n: &str| if n == "flag" { Some(String::new()) } else { vars(n) };
        assert_eq!(c.render_with(lookup).unwrap(), vec!["age", "-o", "x", "", "1KB"]);
    }

    #[test]
    fn shell_mode_quotes_values() {
        let c = CommandTemplate::parse("cat {payload} | wc -c", true).unwrap();
        assert_eq!(
            c.render_with(vars).unwrap(),
            vec!["sh", "-c", "cat '/tmp/my payload.bin' | wc -c"]
        );
    }

    #[test]
    fn unknown_placeholder_is_named() {
        let c = CommandTemplate::parse("x {nope}", false).unwrap();
        assert_eq!(c.render_with(vars), Err("nope".to_string()));
    }

    #[test]
    fn malformed_templates() {
        assert_eq!(Template::parse("a {b"), Err(TemplateError::Unclosed(2)));
        assert_eq!(Template::parse("a }"), Err(TemplateError::Unmatched(2)));
        assert_eq!(Template::parse("{}"), Err(TemplateError::Empty(0)));
        assert!(matches!(
            CommandTemplate::parse("a 'b", false),
            Err(CommandError::Quotes(_))
        ));
        assert_eq!(CommandTemplate::parse("  ", false), Err(CommandError::Empty));
    }
}

/// The values placeholders take in one context (a cell's command, a setup
/// command, a payload generator). Built once per context from the layers
/// that apply, a later layer winning over an earlier one, and then used to
/// render every template of that context, so "which names are known where"
/// is written in one place.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    values: std::collections::HashMap<String, String>,
}

impl Scope {
    pub fn new() -> Scope {
        Scope::default()
    }

    /// Adds (or replaces) one value.
    pub fn with(mut self, name: &str, value: impl Into<String>) -> Scope {
        self.values.insert(name.to_string(), value.into());
        self
    }

    /// Adds every pair, in order.
    pub fn with_all<K: AsRef<str>, V: ToString>(mut self, pairs: impl IntoIterator<Item = (K, V)>) -> Scope {
        for (k, v) in pairs {
            self.values.insert(k.as_ref().to_string(), v.to_string());
        }
        self
    }

    pub fn get(&self, name: &str) -> Option<String> {
        self.values.get(name).cloned()
    }

    /// Renders a command; an unknown placeholder is an error that names it.
    pub fn command(&self, t: &CommandTemplate) -> Result<Vec<String>, UnknownPlaceholder> {
        t.render_with(|n| self.get(n)).map_err(UnknownPlaceholder)
    }

    /// Renders a template such as a path or a size.
    pub fn text(&self, t: &Template) -> Result<String, UnknownPlaceholder> {
        t.render_with(|n| self.get(n)).map_err(UnknownPlaceholder)
    }
}

/// A placeholder no value was given for (validation should have caught it).
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("unknown placeholder {{{0}}}")]
pub struct UnknownPlaceholder(pub String);
