//! Text versus did not write — a failing program's standard error, the
//! names in a suite — reaches the terminal, the reports and the CSV export
//! through the sink's escaping (`base::sink`): a terminal is never sent an
//! escape sequence it would obey, a file never holds a control character,
//! and a spreadsheet never reads a name as a formula. Real processes, the
//! real binary, a temporary folder.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn versus() -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"));
    c.env_remove("VERSUS_STORE");
    c
}

/// OSC 52 (write the clipboard), BEL, CSI 2J (clear the screen), OSC 0 (the window title).
const HOSTILE: &str = r"printf '\033]52;c;cHduZWQ=\007\033[2J\033]0;owned\007' >&2; exit 1";

fn suite(dir: &Path) -> std::path::PathBuf {
    let text = format!(
        "name = \"sinks\"\n[settings]\nruns = 2\nwarmup = 0\n[operations.op]\noutput = \"none\"\n\
         [implementations.fine]\nrun.op = \"true\"\n[implementations.\"=HYPERLINK(1)\"]\nrun.op = \"sh -c \\\"{}\\\"\"\n",
        HOSTILE.replace('\\', "\\\\").replace('"', "\\\"")
    );
    let path = dir.join("s.toml");
    fs::write(&path, text).unwrap();
    path
}

fn controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
        .collect()
}

#[test]
fn a_failing_programs_escape_sequences_are_shown_not_sent() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path());
    let out = dir.path().join("out");
    let run = versus()
        .args(["run", "--no-history", "--color", "never"])
        .arg(&s)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stdout.contains("exited with status 1"),
        "the failure is reported:\n{stdout}\n{stderr}"
    );
    assert_eq!(controls(&stdout), Vec::<char>::new(), "stdout:\n{stdout}");
    assert_eq!(controls(&stderr), Vec::<char>::new(), "stderr:\n{stderr}");
    assert!(stdout.contains(r"\x1b]52;c;"), "shown as text:\n{stdout}");
    for file in ["report.md", "report.html"] {
        let text = fs::read_to_string(out.join(file)).unwrap();
        assert_eq!(controls(&text), Vec::<char>::new(), "{file}");
    }
    // `versus report` of the saved results, in the terminal, as well.
    let again = versus()
        .args(["report", "--color", "never"])
        .arg(out.join("results.json"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.contains("exited with status 1"), "{text}");
    assert_eq!(controls(&text), Vec::<char>::new(), "{text}");
}

#[test]
fn a_name_is_never_a_formula_in_the_csv_export() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path());
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let csv_path = dir.path().join("cells.csv");
    versus()
        .arg("report")
        .arg(out.join("results.json"))
        .arg("--csv")
        .arg(&csv_path)
        .assert()
        .success();
    let csv = fs::read_to_string(&csv_path).unwrap();
    let fields: Vec<&str> = csv.lines().flat_map(|l| l.split(',')).collect();
    assert!(fields.iter().any(|f| f.contains("'=HYPERLINK(1)")), "{csv}");
    assert!(!fields.iter().any(|f| f.trim_matches('"').starts_with('=')), "{csv}");
}
