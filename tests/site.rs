//! `versus site` through the real binary, on a temporary SQLite store: the
//! pages exist and every relative link resolves inside the site; a hostile
//! implementation name appears only escaped and a password in a recorded
//! command never appears; re-publishing after one more run rewrites only
//! the pages it changed (and nothing with no new run); `--regressions`
//! lists the changes as text and JSON and exits 4 when the newest run is
//! slower. The history is made deterministic: one real run gives a
//! document, and copies of it, each a little different and one slower,
//! are imported with a commit each. With a PostgreSQL server
//! (`scripts/ci/postgres.sh`), the same history there publishes the same bytes.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use assert_cmd::Command;
use serde_json::Value;

const HOSTILE: &str = "<script>alert(1)</script>";
const SECRET: &str = "hunter2";

fn versus(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env_remove("VERSUS_STORE")
        .env("XDG_DATA_HOME", dir.join(".data"))
        .current_dir(dir);
    c
}

fn suite(dir: &Path, name: &str, second: &str) -> PathBuf {
    let p = dir.join(format!("{}.toml", name.replace(' ', "-")));
    let text = format!(
        "name = \"{name}\"\nbaseline = \"cat\"\n[settings]\nruns = 6\nwarmup = 0\n[matrix]\nsize = [\"1KB\", \"2KB\"]\n\
[payload]\nsize = \"{{size}}\"\n[operations.copy]\n[implementations.cat]\nrun.copy = \"cat {{in}}\"\n\
[implementations.\"{second}\"]\nrun.copy = \"head -c 100000 {{in}}\"\n"
    );
    fs::write(&p, text).unwrap();
    p
}

/// Every time figure of `cell` (samples and statistics) times `factor`.
fn scale(cell: &mut Value, factor: f64) {
    if let Some(w) = cell["samples"]["wall_ns"].as_array_mut() {
        for v in w {
            *v = Value::from((v.as_f64().unwrap() * factor).round() as u64);
        }
    }
    if let Some(stats) = cell["stats"].as_object_mut() {
        for (k, v) in stats.iter_mut() {
            if k.ends_with("_ns") && !k.contains("user") && !k.contains("sys") && v.is_f64() {
                *v = Value::from(v.as_f64().unwrap() * factor);
            }
        }
    }
}

/// Run `k` of the history: the template, its times wobbling by a few per
/// mille, the hostile implementation's `slower` times slower; a commit of its own.
fn document(dir: &Path, template: &Value, k: usize, slower: f64) -> PathBuf {
    let mut d = template.clone();
    d["started_at"] = Value::from(format!("2026-11-{:02}T10:00:00Z", k + 1));
    d["finished_at"] = Value::from(format!("2026-11-{:02}T10:01:00Z", k + 1));
    d.as_object_mut().unwrap().remove("since");
    d["suite"]["command"] = Value::from(format!(
        "versus run suite.toml --store postgres://bob:{SECRET}@db.internal/bench"
    ));
    let wobble = 1.0 + 0.003 * ((k * 7 % 5) as f64 - 2.0);
    for cell in d["cells"].as_array_mut().unwrap() {
        let hostile = cell["implementation"] == HOSTILE;
        scale(cell, wobble * if hostile { slower } else { 1.0 });
    }
    let path = dir.join(format!("doc-{k}.json"));
    fs::write(&path, serde_json::to_string(&d).unwrap()).unwrap();
    let meta = serde_json::json!({
        "suite_hash": "test", "exit_status": 0, "source": "import",
        "git": {"commit": format!("c0ffee{k:02}"), "branch": "main", "dirty": false}
    });
    fs::write(dir.join(format!("doc-{k}.meta.json")), meta.to_string()).unwrap();
    path
}

fn import(dir: &Path, path: &Path) {
    versus(dir)
        .args(["history", "import", path.to_str().unwrap()])
        .assert()
        .success();
}

/// One real run of the hostile suite, not recorded: the documents' template.
fn template(dir: &Path) -> Value {
    let a = suite(dir, "copies", HOSTILE);
    versus(dir)
        .args(["run", "-q", a.to_str().unwrap(), "--out", "template", "--no-history"])
        .assert()
        .success();
    serde_json::from_str(&fs::read_to_string(dir.join("template/results.json")).unwrap()).unwrap()
}

/// `versus site --out site`: (written, pages) from its report line.
fn publish(dir: &Path) -> (usize, usize) {
    let out = versus(dir).args(["site", "--out", "site"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let line = text.lines().find(|l| l.starts_with("Site: wrote")).expect(&text);
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[2].parse().unwrap(), words[4].parse().unwrap())
}

/// Every file of the site, by path relative to it, with its bytes and modification time.
fn files(site: &Path) -> BTreeMap<PathBuf, (Vec<u8>, SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![site.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let m = fs::metadata(&p).unwrap().modified().unwrap();
                out.insert(p.strip_prefix(site).unwrap().to_path_buf(), (fs::read(&p).unwrap(), m));
            }
        }
    }
    out
}

/// Every `href` of a page that is not an in-page anchor.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|h| !h.starts_with('#'))
        .map(|h| h.replace("&amp;", "&"))
        .collect()
}

fn check_site(site: &Path) {
    let all = files(site);
    assert!(all.contains_key(Path::new("index.html")));
    let suites = all
        .keys()
        .filter(|p| p.starts_with("suites") && p.ends_with("index.html"))
        .count();
    assert_eq!(suites, 2, "a page per suite");
    let cells = all.keys().filter(|p| p.components().count() == 4).count();
    assert_eq!(cells, 8, "a page per cell of each suite");
    let root = fs::canonicalize(site).unwrap();
    for (path, (bytes, _)) in &all {
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(!text.contains(HOSTILE), "{} holds the name unescaped", path.display());
        assert!(!text.contains(SECRET), "{} holds the password", path.display());
        assert!(
            !text.contains("<script") && !text.contains("<link") && !text.contains("src=\"http"),
            "{}",
            path.display()
        );
        for href in links(&text) {
            assert!(!href.contains("://"), "{}: links out to {href}", path.display());
            let target = site.join(path).parent().unwrap().join(&href);
            let target =
                fs::canonicalize(&target).unwrap_or_else(|_| panic!("{}: {href} does not resolve", path.display()));
            assert!(target.starts_with(&root), "{}: {href} leaves the site", path.display());
        }
    }
}

fn regressions(dir: &Path, json: bool) -> (i32, String) {
    let mut args = vec!["site", "--regressions"];
    if json {
        args.push("--json");
    }
    let out = versus(dir).args(&args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

#[test]
fn a_site_from_the_store_links_escapes_hides_and_republishes_only_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let a = suite(dir, "copies", HOSTILE);
    versus(dir)
        .args(["run", "-q", a.to_str().unwrap(), "--out", "template", "--no-history"])
        .assert()
        .success();
    let template: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("template/results.json")).unwrap()).unwrap();
    let b = suite(dir, "other suite", "head");
    versus(dir)
        .args(["run", "-q", b.to_str().unwrap(), "--out", "other"])
        .assert()
        .success();
    for k in 0..7 {
        import(dir, &document(dir, &template, k, 1.0));
    }
    let (written, pages) = publish(dir);
    assert_eq!(written, pages, "a new site writes every page");
    check_site(&dir.join("site"));
    let index = fs::read_to_string(dir.join("site/index.html")).unwrap();
    assert!(index.contains("copies") && index.contains("other suite"));
    let copies = fs::read_dir(dir.join("site/suites"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("copies"))
        .unwrap();
    let page = fs::read_to_string(copies.join("index.html")).unwrap();
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "the name is shown, escaped"
    );
    assert!(
        page.contains("postgres://bob:***@db.internal/bench"),
        "the command is shown, its password hidden"
    );

    assert_eq!(publish(dir).0, 0, "nothing new: nothing written");
    assert_eq!(regressions(dir, false).0, 0, "no slower newest run");

    let before = files(&dir.join("site"));
    import(dir, &document(dir, &template, 7, 3.0));
    let (written, pages) = publish(dir);
    assert!(
        written > 0 && written < pages,
        "one new run rewrites some pages: {written} of {pages}"
    );
    let after = files(&dir.join("site"));
    let changed: Vec<&PathBuf> = after.keys().filter(|p| before.get(*p) != after.get(*p)).collect();
    assert_eq!(
        changed.len(),
        written,
        "the report line counts the files that changed: {changed:?}"
    );
    assert!(
        changed.iter().all(|p| !p.to_string_lossy().contains("other_suite")),
        "the other suite's pages stay: {changed:?}"
    );
    assert!(changed.contains(&&PathBuf::from("index.html")));
    assert!(
        after.keys().any(|p| p.ends_with("run-9.html")),
        "the new run's report is written"
    );
    check_site(&dir.join("site"));
    assert_eq!(publish(dir).0, 0);
    // The re-publish read the older runs from the cache of the publish
    // before (`app::site::cache`); a cold publish, with an empty cache
    // folder, reads the store whole and makes the same site.
    versus(dir)
        .args(["site", "--out", "cold"])
        .env("VERSUS_CACHE_DIR", dir.join("empty-cache"))
        .assert()
        .success();
    assert!(
        dir.join("empty-cache/site").read_dir().unwrap().count() > 0,
        "the cold publish kept its points"
    );
    let bytes = |root: &str| -> BTreeMap<PathBuf, Vec<u8>> {
        files(&dir.join(root)).into_iter().map(|(p, (b, _))| (p, b)).collect()
    };
    assert!(bytes("site") == bytes("cold"), "a cached publish and a cold one differ");

    let (code, text) = regressions(dir, false);
    assert_eq!(code, 4, "the newest run is slower: {text}");
    assert!(
        text.lines()
            .any(|l| l.contains("run 9 commit c0ffee07") && l.contains("SLOWER") && l.contains(HOSTILE)),
        "{text}"
    );
    let (code, text) = regressions(dir, true);
    assert_eq!(code, 4);
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(
        json["newest_slower"], 2,
        "both cells of the slowed implementation: {text}"
    );
    for e in json["changes"].as_array().unwrap() {
        assert!(
            e["cell"].as_str().unwrap().contains(HOSTILE),
            "only the slowed implementation changed: {e}"
        );
    }
    let first = &json["changes"][0];
    assert_eq!(first["kind"], "newest");
    assert_eq!(first["run_id"], 9);
    assert_eq!(first["commit"], "c0ffee07");
    assert_eq!(first["slower"], true);
    assert!(first["ratio"].as_f64().unwrap() > 2.0);
}

#[test]
fn a_postgres_store_publishes_the_same_pages_as_sqlite_and_never_its_password() {
    let Ok(url) = std::env::var("VERSUS_TEST_POSTGRES_URL") else {
        eprintln!("skipped: VERSUS_TEST_POSTGRES_URL is not set (scripts/ci/postgres.sh starts a server)");
        return;
    };
    let name = format!("versus_site_{}", std::process::id());
    let (drop, create) = (
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    );
    let status = std::process::Command::new("psql")
        .args([url.as_str(), "-qc", &drop, "-c", &create])
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("skipped: psql could not create a database on {url}");
        return;
    }
    // A password in the URL (the test server trusts local connections and ignores it).
    let (scheme_user, rest) = url.split_once('@').unwrap();
    let host = rest.rsplit_once('/').map_or(rest, |(h, _)| h);
    let pg = format!("{scheme_user}:sekrit-pg-password@{host}/{name}");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let template = template(dir);
    let sqlite = dir.join("h.db").display().to_string();
    for k in 0..4 {
        let doc = document(dir, &template, k, if k == 3 { 3.0 } else { 1.0 });
        for store in [&sqlite, &pg] {
            versus(dir)
                .args(["history", "--store", store, "import", doc.to_str().unwrap()])
                .assert()
                .success();
        }
    }
    for (store, out) in [(&sqlite, "site-sqlite"), (&pg, "site-pg")] {
        versus(dir)
            .args(["site", "--store", store, "--out", out])
            .assert()
            .success();
    }
    let (a, b) = (files(&dir.join("site-sqlite")), files(&dir.join("site-pg")));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same pages"
    );
    for (path, (bytes, _)) in &b {
        assert!(a[path].0 == *bytes, "{} differs between the backends", path.display());
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains("sekrit") && !text.contains(host),
            "{} shows the store",
            path.display()
        );
    }
}

#[test]
fn a_folder_with_files_versus_did_not_write_keeps_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let t = template(dir);
    import(dir, &document(dir, &t, 1, 1.0));
    // A folder of the user's own: an index of theirs, and a page under suites/.
    fs::create_dir_all(dir.join("site/suites")).unwrap();
    fs::write(dir.join("site/index.html"), "<html>my own index</html>").unwrap();
    fs::write(dir.join("site/suites/notes.html"), "<html>my notes</html>").unwrap();
    let out = versus(dir).args(["site", "--out", "site"]).assert().code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("index.html") && err.contains("not a page versus wrote"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(dir.join("site/index.html")).unwrap(),
        "<html>my own index</html>"
    );
    // Without the index in the way, the site is published beside the notes,
    // and a publish that drops pages still leaves the notes alone.
    fs::remove_file(dir.join("site/index.html")).unwrap();
    publish(dir);
    publish(dir);
    assert_eq!(
        fs::read_to_string(dir.join("site/suites/notes.html")).unwrap(),
        "<html>my notes</html>"
    );
    assert!(
        fs::read_to_string(dir.join("site/index.html"))
            .unwrap()
            .contains("content=\"versus site\"")
    );
}
