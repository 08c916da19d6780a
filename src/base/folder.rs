//! Names as folder names, the one home of both rules: a run's results
//! folder is named for its suite's title (`for_title`), and the runner keeps
//! each cell's inputs and outputs under folders named for its operation,
//! implementation and parameters (`for_name`).
//! Characters a file system or a shell would trip on become `_`, so two
//! names can share a folder ("a b" and "a_b"); a suite where they would is
//! refused when it is read (`colliding`), since one cell would read the
//! other's output.

/// A folder name from a suite's title: letters, digits, '.', '_' and '-'
/// kept, every other run of characters one '-' ("Quickstart: gzip vs xz" →
/// "Quickstart-gzip-vs-xz").
pub fn for_title(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches(['-', '.']);
    if trimmed.is_empty() {
        "suite".into()
    } else {
        trimmed.to_string()
    }
}

/// `s` with every character outside `[A-Za-z0-9._=,-]` replaced by `_`;
/// `_` for an empty name.
pub fn for_name(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | ',') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() { "_".into() } else { clean }
}

/// The first two of `names` that share a folder, with that folder's name.
pub fn colliding<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<(&'a str, &'a str, String)> {
    let mut seen: Vec<(&str, String)> = Vec::new();
    for name in names {
        let folder = for_name(name);
        if let Some((first, _)) = seen.iter().find(|(n, f)| *f == folder && *n != name) {
            return Some((first, name, folder));
        }
        seen.push((name, folder));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_are_safe_and_readable() {
        assert_eq!(
            for_title("Quickstart: gzip vs bzip2 vs xz"),
            "Quickstart-gzip-vs-bzip2-vs-xz"
        );
        assert_eq!(for_title("../../etc"), "etc");
        assert_eq!(for_title("a/b c"), "a-b-c");
        assert_eq!(for_title("???"), "suite");
    }

    #[test]
    fn names_that_would_share_a_folder_are_found_and_distinct_ones_are_not() {
        assert_eq!(colliding(["a b", "x", "a_b"]), Some(("a b", "a_b", "a_b".to_string())));
        assert_eq!(colliding(["a/b", "a:b"]), Some(("a/b", "a:b", "a_b".to_string())));
        assert_eq!(colliding(["go", "rust", "go-1.22", "go_1.22"]), None);
        assert_eq!(for_name(""), "_");
    }
}
