//! Where each page of the site goes, and how one page links another. A
//! file name is made from a name anyone chose (a suite, a machine, a
//! cell), so it keeps only letters, digits, `.`, `-` and `_` of it and adds
//! a short hash of the whole name: two names never share a file, and no
//! name climbs out of the site's folder.

use sha2::{Digest, Sha256};

/// The index, at the site's root.
pub(crate) const INDEX: &str = "index.html";

/// The folder of the runs' reports.
pub(crate) const REPORTS: &str = "reports";

/// A file-name-safe form of `name`: its safe characters (at most 40) and
/// 8 hex digits of its SHA-256.
pub(crate) fn slug(name: &str) -> String {
    let kept: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash: String = Sha256::digest(name.as_bytes())
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{kept}-{hash}")
}

/// A suite's page.
pub(crate) fn suite(name: &str) -> String {
    format!("suites/{}/index.html", slug(name))
}

/// A cell's page: under its suite's folder, in its machine's.
pub(crate) fn cell(suite: &str, machine: &str, cell: &str) -> String {
    format!("suites/{}/{}/{}.html", slug(suite), slug(machine), slug(cell))
}

/// A run's report.
pub(crate) fn report(run_id: i64) -> String {
    format!("{REPORTS}/run-{run_id}.html")
}

/// The link from the page at `from` to the page at `to` (both site paths).
pub(crate) fn link(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_distinct_file_names() {
        let a = slug("<script>alert(1)</script>");
        assert!(
            a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{a}"
        );
        assert_ne!(slug("a/b"), slug("a_b"));
        assert!(!slug("../../etc").contains('/'));
    }

    #[test]
    fn links_climb_to_the_root_first() {
        assert_eq!(link(INDEX, &suite("s")), suite("s"));
        assert_eq!(link(&cell("s", "m", "c"), &report(3)), "../../../reports/run-3.html");
    }
}
