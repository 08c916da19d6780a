//! Benchmark names as Go, Google Benchmark and criterion write them: parts
//! separated by `/`, the first naming what is measured (the operation), the
//! rest its parameters, named (`size=1024` in Go, `size:1024` in Google
//! Benchmark) or by position. Parameters by position are called `arg`,
//! `arg2`, … so the same sub-benchmark in two harnesses meets in one cell.

/// The operation and the parameters of a name; `key_sep` is what joins a
/// named parameter's key and value.
pub(super) fn split(name: &str, key_sep: char) -> (String, Vec<(String, String)>) {
    let mut parts = name.split('/');
    let operation = parts.next().unwrap_or_default().to_string();
    (operation, params(parts, key_sep))
}

/// Parameters from name parts, named or by position.
pub(super) fn params<'a>(parts: impl Iterator<Item = &'a str>, key_sep: char) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut positional = 0;
    for part in parts.filter(|p| !p.is_empty()) {
        match part.split_once(key_sep) {
            Some((k, v)) if !k.is_empty() => out.push((k.to_string(), v.to_string())),
            _ => {
                positional += 1;
                let key = if positional == 1 {
                    "arg".to_string()
                } else {
                    format!("arg{positional}")
                };
                out.push((key, part.to_string()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn operations_and_parameters() {
        let p = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            split("Sha256/size=1024", '='),
            ("Sha256".into(), p(&[("size", "1024")]))
        );
        assert_eq!(
            split("BM_Sum/64/threads:2", ':'),
            ("BM_Sum".into(), p(&[("arg", "64"), ("threads", "2")]))
        );
        assert_eq!(split("a/x/y", '='), ("a".into(), p(&[("arg", "x"), ("arg2", "y")])));
        assert_eq!(split("plain", '='), ("plain".into(), vec![]));
    }
}
