//! `--rev` through the real binary, on a tiny git repository made in a
//! temporary folder (a `true`-like shell script and a build script that
//! counts its runs): each revision built once and cached by commit, a
//! build shared by two implementations, the same commit twice, a failed
//! build as its cells' outcome naming its log (and not cached), the work
//! tree built in place without `--rev`, `versus exec --rev`, and
//! `versus bisect`'s checks and `--replay`. Nothing here depends on how
//! fast anything ran.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Std;

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

struct Repo {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    builds: PathBuf,
    cache: PathBuf,
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Std::new("git").arg("-C").arg(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

const BUILD_OK: &str = "echo \"$PWD\" >> \"$BUILDS\"\nchmod +x tool.sh\n";

impl Repo {
    /// Two commits of `tool.sh` (the second only changes a comment).
    fn new() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("repo");
        fs::create_dir(&dir).unwrap();
        let builds = tmp.path().join("builds.txt");
        let cache = tmp.path().join("cache");
        git(&dir, &["init", "-q", "-b", "main"]);
        git(&dir, &["config", "user.email", "t@versus.invalid"]);
        git(&dir, &["config", "user.name", "t"]);
        let suite = format!(
            r#"
name = "revisions test"
[settings]
runs = 3
warmup = 0
[operations.start]
output = "none"
[implementations.tool]
build = "sh build.sh"
env = {{ BUILDS = "{b}" }}
run.start = "{{checkout}}/tool.sh"
[implementations.again]
build = "sh build.sh"
env = {{ BUILDS = "{b}" }}
run.start = "sh {{checkout}}/tool.sh"
[implementations.fixed]
run.start = "true"
"#,
            b = builds.display()
        );
        fs::write(dir.join("suite.toml"), suite).unwrap();
        fs::write(dir.join("build.sh"), BUILD_OK).unwrap();
        fs::write(dir.join("tool.sh"), "#!/bin/sh\nexit 0\n").unwrap();
        git(&dir, &["add", "-A"]);
        git(&dir, &["commit", "-qm", "first"]);
        fs::write(dir.join("tool.sh"), "#!/bin/sh\n# second\nexit 0\n").unwrap();
        git(&dir, &["commit", "-qam", "second"]);
        Repo {
            _tmp: tmp,
            dir,
            builds,
            cache,
        }
    }

    fn versus(&self) -> Command {
        let mut c = Command::cargo_bin("versus").unwrap();
        c.current_dir(&self.dir)
            .env("VERSUS_CACHE_DIR", &self.cache)
            .env_remove("VERSUS_STORE")
            .env("XDG_DATA_HOME", self.dir.join(".data"));
        c
    }

    fn builds(&self) -> Vec<String> {
        fs::read_to_string(&self.builds)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn results(&self, out: &str) -> Value {
        serde_json::from_str(&fs::read_to_string(self.dir.join(out).join("results.json")).unwrap()).unwrap()
    }

    fn run(&self, out: &str, args: &[&str]) -> assert_cmd::assert::Assert {
        self.versus()
            .args(["run", "suite.toml", "-q", "--no-history", "--out", out])
            .args(args)
            .assert()
    }
}

fn statuses(results: &Value) -> Vec<String> {
    results["revisions"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["build"]["status"].as_str().unwrap().to_string())
        .collect()
}

fn implementations(results: &Value) -> Vec<String> {
    let mut names: Vec<String> = results["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["implementation"].as_str().unwrap().to_string())
        .collect();
    names.dedup();
    names
}

#[test]
fn each_revision_is_built_once_and_measured_as_columns() {
    let repo = Repo::new();
    repo.run("out", &["--rev", "old=HEAD~1", "--rev", "HEAD"]).success();
    let r = repo.results("out");
    assert_eq!(
        implementations(&r),
        ["tool@old", "tool@HEAD", "again@old", "again@HEAD", "fixed"],
        "a revision per column; an implementation taken as it is stays one"
    );
    // tool and again share the repository, the build and its environment: one build per commit.
    assert_eq!(repo.builds().len(), 2, "{:?}", repo.builds());
    assert_eq!(statuses(&r), ["built", "built", "built", "built"]);
    let comparisons = r["revisions"]["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 2, "HEAD against old, for tool and again");
    assert!(
        comparisons
            .iter()
            .all(|c| c["paired"] == true && c["baseline"].as_str().unwrap().ends_with("@old"))
    );
    // The checkouts are worktrees of the repository, at the commits asked for.
    for dir in repo.builds() {
        let commit = git(Path::new(&dir), &["rev-parse", "HEAD"]);
        assert!(
            r["revisions"]["columns"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["commit"] == commit.as_str())
        );
    }

    // Again, and the same commit twice: nothing is built.
    repo.run("out2", &["--rev", "old=HEAD~1", "--rev", "HEAD", "--only", "tool"])
        .success();
    assert_eq!(statuses(&repo.results("out2")), ["cached", "cached"]);
    repo.run("out3", &["--rev", "HEAD", "--rev", "HEAD", "--only", "tool"])
        .success();
    assert_eq!(implementations(&repo.results("out3")), ["tool@HEAD", "tool@HEAD#2"]);
    assert_eq!(repo.builds().len(), 2);
}

#[test]
fn a_failed_build_is_its_cells_outcome_and_names_its_log() {
    let repo = Repo::new();
    fs::write(
        repo.dir.join("build.sh"),
        "echo \"$PWD\" >> \"$BUILDS\"\necho 'tool.sh: line 3: syntax error near `fi'\"'\"'' >&2\nexit 2\n",
    )
    .unwrap();
    git(&repo.dir, &["commit", "-qam", "broken build"]);
    repo.run("out", &["--rev", "good=HEAD~1", "--rev", "bad=HEAD", "--only", "tool"])
        .code(3)
        .stderr(contains("the build of tool at bad"));
    let r = repo.results("out");
    let cells = r["cells"].as_array().unwrap();
    let bad = cells.iter().find(|c| c["implementation"] == "tool@bad").unwrap();
    let good = cells.iter().find(|c| c["implementation"] == "tool@good").unwrap();
    assert_eq!(
        (good["outcome"].as_str(), bad["outcome"].as_str()),
        (Some("ok"), Some("failed"))
    );
    let message = bad["message"].as_str().unwrap();
    let log = &r["revisions"]["columns"][1]["build"]["log"];
    assert!(message.contains(log.as_str().unwrap()), "{message}");
    assert!(message.contains("syntax error"), "the build's last line: {message}");
    assert!(
        fs::read_to_string(log.as_str().unwrap())
            .unwrap()
            .contains("syntax error")
    );
    assert_eq!(statuses(&r), ["built", "failed"]);
    assert!(r["revisions"]["comparisons"].as_array().unwrap().is_empty());
    // A failed build is tried again by the next run; the good one is cached.
    let before = repo.builds().len();
    repo.run("out2", &["--rev", "good=HEAD~1", "--rev", "bad=HEAD", "--only", "tool"])
        .code(3);
    assert_eq!(repo.builds().len(), before + 1);
    assert_eq!(statuses(&repo.results("out2")), ["cached", "failed"]);
}

#[test]
fn without_rev_the_work_tree_is_built_in_place() {
    let repo = Repo::new();
    repo.run("out", &["--only", "tool"]).success();
    let top = fs::canonicalize(&repo.dir).unwrap();
    assert_eq!(repo.builds(), [top.display().to_string()]);
    let r = repo.results("out");
    assert_eq!(implementations(&r), ["tool"]);
    assert!(r.get("revisions").is_none());
}

#[test]
fn bad_revisions_and_suites_without_builds_are_refused() {
    let repo = Repo::new();
    repo.run("out", &["--rev", "no-such-branch", "--rev", "HEAD"])
        .code(1)
        .stderr(contains("--rev no-such-branch"));
    repo.run("out", &["--fail-above", "5%"]).code(2);
    fs::write(
        repo.dir.join("plain.toml"),
        "[operations.x]\n[implementations.t]\nrun.x = \"true\"\n",
    )
    .unwrap();
    repo.versus()
        .args([
            "run",
            "plain.toml",
            "-q",
            "--no-history",
            "--rev",
            "HEAD",
            "--rev",
            "HEAD~1",
        ])
        .assert()
        .code(1)
        .stderr(contains("no implementation"));
}

#[test]
fn exec_measures_commands_at_revisions() {
    let repo = Repo::new();
    let builds = repo.builds.display().to_string();
    repo.versus()
        .env("BUILDS", &builds)
        .args([
            "exec",
            "-q",
            "--no-history",
            "--runs",
            "3",
            "--warmup",
            "0",
            "--style",
            "none",
        ])
        .args([
            "--rev",
            "HEAD~1",
            "--rev",
            "HEAD",
            "--build",
            "sh build.sh",
            "-n",
            "tool",
        ])
        .args(["{checkout}/tool.sh", "--json", "exec.json"])
        .assert()
        .success();
    let r: Value = serde_json::from_str(&fs::read_to_string(repo.dir.join("exec.json")).unwrap()).unwrap();
    assert_eq!(implementations(&r), ["tool@HEAD-1", "tool@HEAD"]);
    assert_eq!(repo.builds().len(), 2);
}

#[test]
fn bisect_checks_its_range_and_cell() {
    let repo = Repo::new();
    let bisect = |args: &[&str]| {
        repo.versus()
            .args(["bisect", "suite.toml", "-q", "--no-history"])
            .args(args)
            .assert()
    };
    bisect(&["--good", "HEAD", "--bad", "HEAD", "--cell", "start/tool/"])
        .code(1)
        .stderr(contains("the same commit"));
    bisect(&["--good", "HEAD", "--bad", "HEAD~1", "--cell", "start/tool/"])
        .code(1)
        .stderr(contains("not an ancestor"));
    bisect(&["--good", "HEAD~1", "--bad", "HEAD", "--cell", "start/fixed/"])
        .code(1)
        .stderr(contains("not an implementation built from a repository"));
    bisect(&["--good", "HEAD~1", "--bad", "HEAD"])
        .code(1)
        .stderr(contains("--cell"));
}

/// A recorded bisection of four commits: c1 is like the good end, c2 like the bad one.
fn recorded(first: [(f64, &str); 2]) -> Value {
    let ev = |ratio: f64, verdict: &str| serde_json::json!({"ratio": ratio, "ci_low": ratio - 0.01, "ci_high": ratio + 0.01, "verdict": verdict});
    let c = |i: u8| format!("{i}{}", "0".repeat(39));
    serde_json::json!({
        "format": 1, "suite": "suite.toml", "cell": "start/tool/", "repo": ".",
        "good": "v1", "bad": "main", "threshold": 0.03, "attempts": 3,
        "commits": [c(0), c(1), c(2), c(3)],
        "subjects": ["first", "a note", "5% more work", "another note"],
        "steps": [
            {"number": 1, "good": c(0), "mid": c(1), "bad": c(3), "call": "good",
             "attempts": [{"mid_vs_good": ev(first[0].0, first[0].1), "mid_vs_bad": ev(first[1].0, first[1].1), "bad_vs_good": ev(1.05, "slower")}]},
            {"number": 2, "good": c(1), "mid": c(2), "bad": c(3), "call": "bad",
             "attempts": [{"mid_vs_good": ev(1.05, "slower"), "mid_vs_bad": ev(1.0, "same"), "bad_vs_good": ev(1.05, "slower")}]}
        ],
        "ending": {"kind": "found", "commit": c(2)},
        "skipped": {}, "builds": 4
    })
}

#[test]
fn a_recorded_bisection_replays() {
    let repo = Repo::new();
    let path = repo.dir.join("bisect.json");
    fs::write(&path, recorded([(1.0, "same"), (0.952, "faster")]).to_string()).unwrap();
    repo.versus()
        .args(["bisect", "--replay", "bisect.json"])
        .assert()
        .success()
        .stdout(contains("first bad commit: 2000000000 \"5% more work\""));
    // Evidence that says the first middle was bad leads elsewhere: the replay refuses it.
    fs::write(&path, recorded([(1.05, "slower"), (1.0, "same")]).to_string()).unwrap();
    repo.versus()
        .args(["bisect", "--replay", "bisect.json"])
        .assert()
        .code(1)
        .stderr(contains("differ"));
}

#[test]
fn a_bisection_is_kept_in_the_store_and_listed_by_the_site() {
    let repo = Repo::new();
    // A third commit that makes the tool 100 ms slower: the first bad one.
    // (30 ms was once too little: on a machine loaded by the rest of the
    // test command two of ten `exit 0` runs took longer, and every attempt
    // read `unknown`; a run of the old tool would now have to wait 100 ms.)
    fs::write(repo.dir.join("tool.sh"), "#!/bin/sh\nsleep 0.1\nexit 0\n").unwrap();
    git(&repo.dir, &["commit", "-qam", "slower"]);
    let bad = git(&repo.dir, &["rev-parse", "HEAD"]);
    repo.versus()
        .args(["bisect", "suite.toml", "-q", "--runs", "10"])
        .args(["--good", "HEAD~2", "--bad", "HEAD", "--cell", "start/tool/"])
        .assert()
        .success()
        .stdout(contains("first bad commit"));
    let out = repo
        .versus()
        .args(["site", "--out", "site", "--regressions", "--json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bisects: Vec<&Value> = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "bisect")
        .collect();
    assert_eq!(bisects.len(), 1, "{json}");
    let b = bisects[0];
    assert_eq!(b["cell"], "start/tool/");
    assert_eq!(b["suite"], "revisions test");
    assert_eq!(b["commit"], bad.as_str(), "the first bad commit");
    assert_eq!(b["slower"], true);
    assert!(b["ratio"].as_f64().unwrap() > 1.0, "{b}");
    assert!(b["conclusion"].as_str().unwrap().starts_with("first bad commit"), "{b}");
    let index = fs::read_to_string(repo.dir.join("site/index.html")).unwrap();
    assert!(index.contains("bisect: first bad commit"), "the index lists it");
    // --no-history keeps nothing, the conclusion neither.
    let before = json["changes"].as_array().unwrap().len();
    repo.versus()
        .args([
            "bisect",
            "suite.toml",
            "-q",
            "--runs",
            "10",
            "--no-history",
            "--out",
            "again",
        ])
        .args(["--good", "HEAD~2", "--bad", "HEAD", "--cell", "start/tool/"])
        .assert()
        .success();
    let out = repo
        .versus()
        .args(["site", "--regressions", "--json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["changes"].as_array().unwrap().len(), before);
}
