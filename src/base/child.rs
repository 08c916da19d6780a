//! Every process versus starts is made here, so none inherits versus's own
//! secrets. The code under test, its builds, the suite's hooks and services
//! get versus's environment, which is also where the history store's
//! password lives (`VERSUS_STORE`, and libpq's variables); a benchmarked
//! program has no business reading it. `command` is `Command::new` with
//! those variables removed; what a suite sets in its own `env` is added after
//! and kept. A test reads `src/` and fails on a `Command::new` anywhere else.

use std::ffi::OsStr;
use std::process::Command;

/// The variables no child of versus inherits: the store's location (with
/// its password), and libpq's that hold a secret or name a file of them.
/// The rest of libpq's (`PGHOST`, `PGUSER`, …) carry none and are kept, for
/// suites that benchmark PostgreSQL clients.
pub const WITHHELD: &[&str] = &["VERSUS_STORE", "PGPASSWORD", "PGPASSFILE", "PGSERVICEFILE", "PGSSLKEY"];

/// The environment variable that marks every process a run starts, so the
/// orphan guard (`exec::guard`) can end them all however versus ends.
pub const RUN_MARK: &str = "VERSUS_RUN";

/// A command for `program` whose environment is versus's less `WITHHELD`.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new(program);
    for name in WITHHELD {
        cmd.env_remove(name);
    }
    cmd
}

/// `command`, unmarked: for a program versus asks something of for itself
/// (git), which the orphan guard must leave alone — marked, it was killed at
/// random as a session ended, losing the run's git state.
pub fn unmarked(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = command(program);
    cmd.env_remove(RUN_MARK);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_child_inherits_everything_but_the_secrets() {
        let cmd = command("env");
        let removed: Vec<&OsStr> = cmd.get_envs().filter(|(_, v)| v.is_none()).map(|(k, _)| k).collect();
        assert_eq!(removed.len(), WITHHELD.len());
        assert!(WITHHELD.iter().all(|w| removed.contains(&OsStr::new(w))));
    }

    /// Every `Command::new` in `src/` outside this file, test code left out.
    fn elsewhere(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                elsewhere(&path, found);
                continue;
            }
            if path.extension() != Some(OsStr::new("rs")) || path.ends_with("base/child.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with("tests.rs"))
            {
                continue;
            }
            for (n, line) in code.lines().enumerate() {
                if line.contains("Command::new(") {
                    found.push(format!("{}:{}", path.display(), n + 1));
                }
            }
        }
    }

    #[test]
    fn every_process_versus_starts_is_made_here() {
        let mut found = vec![];
        elsewhere(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
        assert!(
            found.is_empty(),
            "start processes with base::child::command, not Command::new: {found:?}"
        );
    }
}
