//! Shell syntax in a command that runs without a shell. Without a shell a
//! command is split into words and started directly, so `echo hi | wc -c`
//! would run `echo` with `|`, `wc` and `-c` as its arguments and succeed: a
//! wrong measurement with exit status 0. Commands are checked for what a
//! POSIX shell would have interpreted before anything runs (a suite's
//! templates before their placeholders are filled, `versus exec`'s text as
//! given), and refused with a message naming the way to a shell.

/// The first piece of `text` a POSIX shell would interpret (outside quotes:
/// operators, redirections, substitutions, globs, variables, `~`, comments,
/// leading assignments; inside double quotes: substitutions and variables).
pub(crate) fn shell_syntax(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let (mut single, mut double, mut word_start) = (false, false, true);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let at_word_start = word_start;
        word_start = c.is_whitespace() && !single && !double;
        if single {
            single = c != '\'';
        } else if c == '\\' {
            i += 2;
            continue;
        } else if c == '$' && next.is_some_and(|n| n.is_alphanumeric() || "_{(@*#?$!-".contains(n)) {
            let n = next.expect("checked");
            return Some(if n == '(' { "$(".into() } else { format!("${n}") });
        } else if c == '`' {
            return Some("`".into());
        } else if double {
            double = c != '"';
        } else if c == '\'' {
            single = true;
        } else if c == '"' {
            double = true;
        } else if "|&;<>()".contains(c) {
            let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
            return Some(
                if ["||", "&&", ">>", "<<", ";;", "|&", ">&", "&>"].contains(&two.as_str()) {
                    two
                } else {
                    c.to_string()
                },
            );
        } else if "*?".contains(c)
            || (c == '[' && chars[i..].iter().take_while(|c| !c.is_whitespace()).any(|c| *c == ']'))
            || (at_word_start && (c == '~' || c == '#'))
        {
            return Some(c.to_string());
        }
        i += 1;
    }
    leading_assignment(text)
}

/// `NAME=value cmd`: an environment assignment only a shell understands.
fn leading_assignment(text: &str) -> Option<String> {
    let first = text.split_whitespace().next()?;
    let (name, _) = first.split_once('=')?;
    let ident = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    ident.then(|| format!("{name}="))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_syntax_is_found_outside_quotes() {
        for (text, found) in [
            ("echo a | cat", "|"),
            ("true && false", "&&"),
            ("sleep 1; true", ";"),
            ("echo hi > out", ">"),
            ("wc -l < in", "<"),
            ("echo $(date)", "$("),
            ("echo `date`", "`"),
            ("ls *.rs", "*"),
            ("echo $HOME", "$H"),
            ("echo \"$HOME\"", "$H"),
            ("cat ~/x", "~"),
            ("FOO=1 env", "FOO="),
            ("sleep 1 &", "&"),
            ("ls [ab].rs", "["),
        ] {
            assert_eq!(shell_syntax(text).as_deref(), Some(found), "{text}");
        }
        for text in [
            "grep 'a|b' file",
            "echo \"a && b\"",
            "awk '{print $1}' f",
            "echo a\\|b",
            "sleep 0.1",
            "gzip -kf data.bin",
            "sh -c 'echo x | cat'",
            "printf %s x=1",
            "[ -f x ]",
        ] {
            assert_eq!(shell_syntax(text), None, "{text}");
        }
    }
}
