//! What versus promises beyond running a suite's commands (docs/security.md),
//! through the real binary and real processes in temporary folders:
//!
//! - it never deletes or replaces what it did not create: an output folder is
//!   new, empty, or one versus wrote before, and one run at a time writes
//!   into it;
//! - a PostgreSQL password given with `--store` or `VERSUS_STORE`, in any
//!   form a URL or a keyword/value string can carry it, is in no file,
//!   report, message or store row it writes, and a command recorded with
//!   one by an older versus is shown redacted;
//! - no process it starts for a suite (setup, services, builds, version
//!   commands, runs) inherits the store or libpq's secrets.
//!
//! The store URLs point at port 1, where nothing listens: no server is
//! needed, the run completes, writes its results and exits 1.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SECRET: &str = "Secret1";

fn versus(dir: &Path) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("versus"));
    c.current_dir(dir)
        .env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env("XDG_DATA_HOME", dir.join(".data"))
        .env("VERSUS_STORE_RETRY_SECONDS", "0")
        .env_remove("VERSUS_STORE")
        .env_remove("PGPASSWORD")
        .stdin(Stdio::null());
    c
}

fn run(cmd: &mut Command) -> (Option<i32>, String) {
    let Output { status, stdout, stderr } = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    (status.code(), text)
}

/// A suite of one quick cell named `name`, its command `command`.
fn suite(dir: &Path, name: &str, command: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\n[settings]\nruns = 2\nwarmup = 0\n[operations.x]\noutput = \"none\"\n\
         [implementations.a]\nrun.x = \"{command}\"\n"
    );
    fs::write(&path, text).unwrap();
    path
}

/// Polls until `ready` holds; panics with `what` after a generous bound.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(60), "gave up waiting: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_folder_versus_did_not_make_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path(), "s", "true");
    let proj = dir.path().join("proj");
    fs::create_dir_all(proj.join("tmp")).unwrap();
    fs::create_dir_all(proj.join("work")).unwrap();
    fs::write(proj.join("tmp/notes.txt"), "x").unwrap();
    fs::write(proj.join("report.md"), "my own report").unwrap();
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--out", "proj"]));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("proj") && text.contains("--out"), "{text}");
    assert_eq!(fs::read_to_string(proj.join("tmp/notes.txt")).unwrap(), "x");
    assert_eq!(fs::read_to_string(proj.join("report.md")).unwrap(), "my own report");
    assert!(proj.join("work").is_dir());
    assert!(!proj.join("results.json").exists());
}

#[test]
fn a_new_an_empty_or_an_earlier_runs_folder_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path(), "s", "true");
    fs::create_dir(dir.path().join("empty")).unwrap();
    for out in ["new/deeper", "empty", "empty"] {
        let (code, text) = run(versus(dir.path())
            .args(["run", "-q", "--no-history"])
            .arg(&s)
            .args(["--out", out]));
        assert_eq!(code, Some(0), "--out {out}: {text}");
        assert!(dir.path().join(out).join("results.json").is_file());
    }
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--resume", "empty"]));
    assert_eq!(code, Some(0), "--resume: {text}");
}

#[test]
fn a_second_run_into_a_folder_in_use_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (started, hold) = (dir.path().join("started"), dir.path().join("hold"));
    fs::write(&hold, "").unwrap();
    let slow = suite(
        dir.path(),
        "slow",
        &format!(
            "sh -c 'touch {}; while [ -e {} ]; do sleep 0.01; done'",
            started.display(),
            hold.display()
        ),
    );
    let quick = suite(dir.path(), "quick", "true");
    let mut first = versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&slow)
        .args(["--out", "o"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the first run to start its cell", || started.exists());
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&quick)
        .args(["--out", "o"]));
    fs::remove_file(&hold).unwrap();
    let first = first.wait().unwrap();
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("/o") && text.contains("another"), "{text}");
    assert_eq!(first.code(), Some(0));
    let results = fs::read_to_string(dir.path().join("o/results.json")).unwrap();
    assert!(
        results.contains("\"name\": \"slow\""),
        "the second run wrote into the first's folder"
    );
}

/// Every file under `dir` whose name or content holds `needle`.
fn holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = vec![];
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().contains(needle) {
            found.push(path.clone());
        }
        if path.is_dir() {
            found.extend(holding(&path, needle));
        } else if String::from_utf8_lossy(&fs::read(&path).unwrap()).contains(needle) {
            found.push(path);
        }
    }
    found
}

/// Each way a store's URL or keyword/value string can carry the password.
const STORES: &[&str] = &[
    "postgres://u:Secret1@127.0.0.1:1/db",
    "postgres://u:p@Secret1@127.0.0.1:1/db",
    "postgres://u:p%40Secret1@127.0.0.1:1/db",
    "postgres://u@127.0.0.1:1/db?password=Secret1",
    "postgresql://u@127.0.0.1:1/db?connect_timeout=5&sslpassword=Secret1",
    "host=127.0.0.1 port=1 user=u password=Secret1 dbname=db",
    "host=127.0.0.1 port=1 password='a Secret1' dbname=db",
];

/// The pasteable hint: `versus history import …` with no `*` in it.
fn assert_pasteable_hint(text: &str) {
    let hint = text
        .split("record it with `")
        .nth(1)
        .and_then(|t| t.split('`').next())
        .unwrap_or_else(|| panic!("no hint: {text}"));
    assert!(
        hint.starts_with("versus history import ") && !hint.contains('*'),
        "{hint}"
    );
}

#[test]
fn a_store_password_is_in_no_file_report_or_message_of_run_exec_or_import() {
    let hyperfine = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/hyperfine-1.20.json");
    for store in STORES {
        let as_flag = [
            vec!["--store".to_string(), store.to_string()],
            vec![format!("--store={store}")],
        ];
        for flag in &as_flag {
            let dir = tempfile::tempdir().unwrap();
            let s = suite(dir.path(), "s", "true");
            let commands: [Vec<String>; 3] = [
                vec![
                    "run".into(),
                    "-q".into(),
                    s.display().to_string(),
                    "--out".into(),
                    "o".into(),
                ],
                vec![
                    "exec".into(),
                    "--runs".into(),
                    "2".into(),
                    "--json".into(),
                    "e.json".into(),
                    "true".into(),
                ],
                vec![
                    "import".into(),
                    hyperfine.display().to_string(),
                    "--out".into(),
                    "i".into(),
                ],
            ];
            let said: Vec<String> = commands
                .iter()
                .map(|args| {
                    let (code, text) = run(versus(dir.path()).args(args).args(flag));
                    assert_eq!(code, Some(1), "{args:?} {flag:?}: {text}");
                    text
                })
                .collect();
            let found = holding(dir.path(), SECRET);
            assert!(found.is_empty(), "{flag:?} is in {found:?}");
            for text in said {
                assert!(!text.contains(SECRET), "{flag:?} said it:\n{text}");
                assert_pasteable_hint(&text);
            }
        }
    }
}

#[test]
fn a_password_in_versus_store_is_in_no_file_or_message() {
    for store in STORES {
        let dir = tempfile::tempdir().unwrap();
        let s = suite(dir.path(), "s", "true");
        let (code, text) = run(versus(dir.path())
            .env("VERSUS_STORE", store)
            .args(["run", "-q"])
            .arg(&s)
            .args(["--out", "o"]));
        assert_eq!(code, Some(1), "{text}");
        let found = holding(dir.path(), SECRET);
        assert!(found.is_empty(), "{store} is in {found:?}");
        assert!(!text.contains(SECRET), "{store}: {text}");
        assert_pasteable_hint(&text);
    }
}

#[test]
fn a_password_an_older_versus_recorded_is_redacted_when_read() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path(), "s", "true");
    let db = dir.path().join("h.db");
    let store = ["--store", db.to_str().unwrap()];
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q"])
        .arg(&s)
        .args(["--out", "o"])
        .args(store));
    assert_eq!(code, Some(0), "{text}");
    // What an older versus wrote: the URL, password and all, in the command.
    let mut old: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("o/results.json")).unwrap()).unwrap();
    old["suite"]["command"] = "versus run s.toml --store postgres://u:Secret1@127.0.0.1:1/db?password=Secret1".into();
    fs::write(dir.path().join("old.json"), old.to_string()).unwrap();
    let (code, text) = run(versus(dir.path()).args(["history", "import", "old.json"]).args(store));
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(versus(dir.path()).args(["history", "show", "2"]).args(store));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("postgres://u:***@127.0.0.1:1/db?password=***"), "{text}");
    let (code, text) = run(versus(dir.path())
        .args(["history", "export", "2", "--out", "exported.json"])
        .args(store));
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(versus(dir.path()).args(["report", "old.json", "--markdown", "old.md"]));
    assert_eq!(code, Some(0), "{text}");
    for written in ["exported.json", "old.md"] {
        let text = fs::read_to_string(dir.path().join(written)).unwrap();
        assert!(!text.contains(SECRET) && text.contains("u:***@"), "{written}: {text}");
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let commands: Vec<String> = conn
        .prepare("SELECT command FROM runs")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(commands.iter().all(|c| !c.contains(SECRET)), "{commands:?}");
}

#[test]
fn no_process_started_for_a_suite_inherits_the_store_or_libpq_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let dump = |what: &str| format!("sh -c 'env > {d}/{what}.env'");
    let text = format!(
        r#"
name = "env"
setup = ["{setup}"]
teardown = ["{teardown}"]
[settings]
runs = 1
warmup = 0
[operations.x]
output = "none"
[services.svc]
command = "sh -c 'env > {d}/service.env; exec sleep 60'"
[implementations.a]
build = "{build}"
version = "{version}"
prepare = ["{prepare}"]
run.x = "{run}"
[implementations.b]
env = {{ PGPASSWORD = "given-by-the-suite" }}
run.x = "{given}"
"#,
        setup = dump("setup"),
        teardown = dump("teardown"),
        build = dump("build"),
        version = dump("version"),
        prepare = dump("prepare"),
        run = dump("run"),
        given = dump("given"),
    );
    fs::write(dir.path().join("s.toml"), text).unwrap();
    for args in [
        &["init", "-q"][..],
        &["add", "s.toml"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@versus.invalid",
            "commit",
            "-qm",
            "s",
        ],
    ] {
        assert!(
            Command::new("git")
                .current_dir(dir.path())
                .args(args)
                .status()
                .unwrap()
                .success()
        );
    }
    let (code, out) = run(versus(dir.path())
        .env("VERSUS_STORE", "postgres://u:Secret1@127.0.0.1:1/db")
        .env("PGPASSWORD", "Secret2")
        .env("PGPASSFILE", "/Secret3/pgpass")
        .env("VERSUS_TEST_KEPT", "kept")
        .args(["run", "-q", "--no-history", "s.toml", "--out", "o"]));
    assert_eq!(code, Some(0), "{out}");
    for what in [
        "setup", "teardown", "service", "build", "version", "prepare", "run", "given",
    ] {
        let env = fs::read_to_string(dir.path().join(format!("{what}.env")))
            .unwrap_or_else(|e| panic!("{what} wrote no environment: {e}"));
        assert!(
            env.contains("VERSUS_TEST_KEPT=kept"),
            "{what}: the rest of the environment is kept"
        );
        let leaked: Vec<&str> = env
            .lines()
            .filter(|l| l.contains("Secret") || l.starts_with("VERSUS_STORE=") || l.starts_with("PGPASSFILE="))
            .collect();
        assert!(leaked.is_empty(), "{what} inherited {leaked:?}");
    }
    let given = fs::read_to_string(dir.path().join("given.env")).unwrap();
    assert!(
        given.contains("PGPASSWORD=given-by-the-suite"),
        "a suite's own env is kept"
    );
}

/// A program's 900 KB of error text is cut to a few KB in the cell (its
/// end kept), so it is not copied whole into results.json, the journal and
/// every report. (A worker's error takes the same cap: `base::text::capped`
/// in `CellState::fail_for`.)
#[test]
fn a_huge_error_message_is_capped_in_the_cell_and_the_reports() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("loud.sh"),
        "head -c 900000 /dev/zero | tr '\\000' x >&2\necho END >&2\nexit 3\n",
    )
    .unwrap();
    let s = suite(dir.path(), "loud", "sh loud.sh");
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--out", "out"]));
    assert_eq!(code, Some(3), "{text}");
    let results = fs::read_to_string(dir.path().join("out/results.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&results).unwrap();
    let message = doc["cells"][0]["message"].as_str().unwrap();
    assert!(message.len() <= 4096, "{} bytes", message.len());
    assert!(message.ends_with("END"), "{message}");
    for report in ["out/report.md", "out/report.html", "out/cells.jsonl"] {
        let size = fs::metadata(dir.path().join(report)).unwrap().len();
        assert!(size < 200_000, "{report}: {size} bytes");
    }
}

/// A suite whose command no system could start (3 MiB) is refused by name
/// before anything runs, and a suite file over 16 MiB is refused before it is
/// read: neither costs memory in proportion to its size.
#[test]
fn a_command_or_suite_file_past_what_can_run_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("echo {} | cat", "a".repeat(3 << 20));
    let s = suite(dir.path(), "long", &long);
    let (code, text) = run(versus(dir.path()).args(["run", "-q", "--no-history"]).arg(&s));
    assert_eq!(code, Some(1), "{}", &text[..text.len().min(2000)]);
    assert!(
        text.contains("long.toml") && text.contains("run.x"),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(text.contains("could never run"), "{}", &text[..text.len().min(2000)]);
    assert!(
        text.len() < 2000,
        "the message repeats the command: {} bytes",
        text.len()
    );
    assert!(!dir.path().join(".versus").exists());

    let big = dir.path().join("big.toml");
    let file = fs::File::create(&big).unwrap();
    file.set_len(17 << 20).unwrap();
    let (code, text) = run(versus(dir.path()).args(["run", "-q", "--no-history"]).arg(&big));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("big.toml") && text.contains("at most 16 MiB"), "{text}");
}

/// A suite whose implementation reads a generated 1 KB payload.
fn payload_suite(dir: &Path) -> PathBuf {
    let path = dir.join("p.toml");
    let text = "name = \"p\"\n[settings]\nruns = 2\nwarmup = 0\n[payload]\nsize = \"1KB\"\nseed = 7\n\
                [operations.x]\n[implementations.a]\nrun.x = \"cat {in}\"\n";
    fs::write(&path, text).unwrap();
    path
}

/// With no home folder the payload cache falls back to the temporary
/// folder, which others can write to: versus makes its own folder there
/// private, and refuses one that others could have filled (a planted
/// payload of the right size would otherwise be fed to every implementation).
#[test]
fn without_a_home_the_payload_cache_is_private_or_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let s = payload_suite(dir.path());
    let homeless = |c: &mut Command| {
        c.env_remove("VERSUS_CACHE_DIR")
            .env_remove("HOME")
            .env_remove("XDG_CACHE_HOME")
            .env("TMPDIR", &tmp);
    };
    let mut first = versus(dir.path());
    homeless(&mut first);
    let (code, text) = run(first.args(["run", "-q", "--no-history"]).arg(&s).args(["--out", "one"]));
    assert_eq!(code, Some(0), "{text}");
    let cache = fs::read_dir(&tmp).unwrap().next().unwrap().unwrap().path();
    let name = cache.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("versus-"), "{name}");
    assert_eq!(fs::metadata(&cache).unwrap().permissions().mode() & 0o777, 0o700);

    fs::set_permissions(&cache, fs::Permissions::from_mode(0o777)).unwrap();
    let mut second = versus(dir.path());
    homeless(&mut second);
    let (code, text) = run(second
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--out", "two"]));
    assert_ne!(code, Some(0), "{text}");
    assert!(text.contains(&name) && text.contains("VERSUS_CACHE_DIR"), "{text}");
}
