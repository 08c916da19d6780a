//! The floor plan, enforced: which top-level module of `src/` may use which.
//!
//! `LAYERS` is the table the README's architecture section describes. The
//! test reads every source file (test code left out), collects each path
//! that leaves its own top-level module — `crate::x`, `super::…` climbing
//! to the crate root, inline paths and `pub use` re-exports alike — and
//! fails on any edge the table does not allow. The table itself must be
//! acyclic, and every module of `src/` must have a row, so a new module is
//! placed on purpose.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and the modules it may use, lowest floor first.
/// A module may use only modules listed before it.
const LAYERS: &[(&str, &[&str])] = &[
    // Ground floor: shared nouns and pure statistics.
    ("base", &[]),
    ("stats", &[]),
    // The document every later layer reads and writes.
    ("results", &["base", "stats"]),
    // Inputs, the judge, and what the machine says of itself.
    ("suite", &["base", "results"]),
    ("payload", &["base"]),
    ("environment", &["base", "results", "stats"]),
    ("judge", &["base", "results", "stats"]),
    // Processes and storage.
    ("exec", &["base", "results", "suite"]),
    ("worker", &["base", "exec", "payload"]),
    ("plan", &["base", "results", "suite"]),
    // Measuring and concluding.
    (
        "runner",
        &[
            "base", "exec", "judge", "payload", "plan", "results", "stats", "suite", "worker",
        ],
    ),
    (
        "analysis",
        &[
            "base",
            "environment",
            "exec",
            "judge",
            "plan",
            "results",
            "stats",
            "suite",
        ],
    ),
    // Making documents: a run, an import, a merge, a revision's build.
    (
        "session",
        &[
            "analysis",
            "base",
            "environment",
            "exec",
            "payload",
            "plan",
            "results",
            "runner",
            "suite",
        ],
    ),
    (
        "import",
        &["analysis", "base", "environment", "plan", "results", "suite"],
    ),
    ("merge", &["analysis", "base", "results"]),
    (
        "revisions",
        &["base", "environment", "judge", "plan", "results", "suite"],
    ),
    // Turning documents into text: what a report shows is in the document
    // it is handed, so it asks neither the judge, the analysis nor the
    // statistics.
    (
        "report",
        &["base", "environment", "exec", "plan", "results", "runner", "suite"],
    ),
    // Across runs: the store, the run-to-run judge, diff, trend, the site,
    // bisect. Nothing below it knows it exists.
    (
        "history",
        &[
            "analysis",
            "base",
            "environment",
            "exec",
            "judge",
            "payload",
            "report",
            "results",
            "stats",
        ],
    ),
    // Glue: flags to sessions, results to outputs.
    (
        "app",
        &[
            "analysis",
            "base",
            "environment",
            "exec",
            "history",
            "import",
            "judge",
            "merge",
            "payload",
            "plan",
            "report",
            "results",
            "revisions",
            "runner",
            "session",
            "stats",
            "suite",
            "worker",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, test-only files left out: a module's
/// tests are inline, in its folder's `tests.rs`, or, when they need several
/// files, in its folder's `tests/`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() && name != "tests" {
            sources(&path, out);
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// Every `.rs` file under `dir`, tests included.
fn all_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            all_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn tests_have_one_layout() {
    let mut files = Vec::new();
    all_sources(&src(), &mut files);
    let mut odd: Vec<String> = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src()).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap();
        if rel.ends_with("_tests.rs") {
            odd.push(format!(
                "{rel}: a test file beside the code (move it to the folder's tests.rs or tests/)"
            ));
        }
        if text.lines().any(|l| l.trim_start().starts_with("#[path")) {
            odd.push(format!("{rel}: #[path] (give the module its own file in a folder)"));
        }
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let beside = file.with_file_name(&stem).join("tests.rs");
        if stem != "mod" && beside.is_file() {
            odd.push(format!(
                "{rel}: its tests in {stem}/tests.rs (make {stem}/ a folder with mod.rs)"
            ));
        }
    }
    odd.sort();
    assert!(odd.is_empty(), "tests outside the one layout:\n  {}", odd.join("\n  "));
}

/// The module path of a file: `src/judge/noise.rs` is `[judge, noise]`,
/// `src/judge/mod.rs` is `[judge]`, `lib.rs` and `main.rs` are the root.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().to_string()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if parts.first().is_some_and(|p| p == "bin") {
        return vec![];
    }
    if !["mod", "lib", "main"].contains(&stem) {
        parts.push(stem.to_string());
    }
    parts
}

/// The text with comments, string and char literals blanked, and every
/// `#[cfg(test)]` item removed.
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            i = end;
        } else if b[i] == b'r' && (b[i..].starts_with(b"r\"") || b[i..].starts_with(b"r#")) {
            let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let start = i + 2 + hashes;
            i = text[start..].find(&close).map_or(b.len(), |e| start + e + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            let end = text[i + 2..].find('\'').map_or(b.len(), |e| i + 2 + e + 1);
            i = end;
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    strip_test_items(&out)
}

/// Removes each item under `#[cfg(test)]`: up to its matching `}` or its `;`.
fn strip_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (k, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

fn ident_at(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Whether the match at `at` starts a path segment (not the tail of a longer name).
fn starts_word(code: &str, at: usize) -> bool {
    at == 0 || !code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

/// The top-level modules a file's code names outside its own module.
fn uses_of(module: &[String], code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        if !starts_word(code, at) {
            continue;
        }
        let after = at + "crate::".len();
        if code[after..].starts_with('{') {
            let close = code[after..].find('}').map_or(code.len(), |e| after + e);
            for part in code[after + 1..close].split(',') {
                let name = part.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    found.insert(name.to_string());
                }
            }
        } else {
            found.insert(ident_at(code, after).to_string());
        }
    }
    for (at, _) in code.match_indices("super::") {
        if !starts_word(code, at) || code[..at].ends_with("super::") {
            continue;
        }
        let mut depth = 0;
        let mut k = at;
        while code[k..].starts_with("super::") {
            depth += 1;
            k += "super::".len();
        }
        // Climbing to the crate root: the next segment is a top-level module.
        if depth >= module.len() {
            found.insert(ident_at(code, k).to_string());
        }
    }
    found
}

/// Every edge between two top-level modules: (from, to) → the files that make it.
fn edges() -> BTreeMap<(String, String), Vec<String>> {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    let tops: BTreeSet<String> = LAYERS.iter().map(|(m, _)| m.to_string()).collect();
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let module = module_of(&file);
        let Some(from) = module.first() else { continue };
        let code = code_of(&fs::read_to_string(&file).unwrap());
        for to in uses_of(&module, &code) {
            if &to != from && tops.contains(&to) {
                let rel = file.strip_prefix(src()).unwrap().display().to_string();
                out.entry((from.clone(), to)).or_default().push(rel);
            }
        }
    }
    out
}

/// The first cycle in the table, if any, as the modules on it.
fn cycle(table: &BTreeMap<&str, Vec<&str>>) -> Option<Vec<String>> {
    fn visit<'a>(
        m: &'a str,
        table: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| *p == m) {
            return Some(path[i..].iter().map(|s| s.to_string()).chain([m.to_string()]).collect());
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for next in table.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, table, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    table.keys().find_map(|m| visit(m, table, &mut Vec::new(), &mut done))
}

#[test]
fn the_table_of_layers_is_acyclic_and_names_each_module_once() {
    let table: BTreeMap<&str, Vec<&str>> = LAYERS.iter().map(|(m, d)| (*m, d.to_vec())).collect();
    assert_eq!(table.len(), LAYERS.len(), "a module has two rows in LAYERS");
    assert_eq!(cycle(&table), None, "LAYERS has a cycle");
    for (m, deps) in &table {
        for d in deps {
            assert!(table.contains_key(d), "{m} may use {d}, which has no row in LAYERS");
        }
    }
}

#[test]
fn every_module_of_src_has_a_row() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("pub mod ")
                .or_else(|| l.trim().strip_prefix("pub(crate) mod "))
                .or_else(|| l.trim().strip_prefix("mod "))
        })
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .collect();
    let rows: BTreeSet<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    assert_eq!(declared, rows, "lib.rs's modules and LAYERS differ");
    let loose: Vec<String> = fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".rs") && !["lib.rs", "main.rs"].contains(&n.as_str()))
        .collect();
    assert!(
        loose.is_empty(),
        "loose files at src/ top (give each a folder): {loose:?}"
    );
}

#[test]
fn no_module_uses_one_its_row_does_not_allow() {
    let table: BTreeMap<&str, Vec<&str>> = LAYERS.iter().map(|(m, d)| (*m, d.to_vec())).collect();
    let bad: Vec<String> = edges()
        .into_iter()
        .filter(|((from, to), _)| !table.get(from.as_str()).is_some_and(|d| d.contains(&to.as_str())))
        .map(|((from, to), files)| format!("{from} -> {to} (in {})", files.join(", ")))
        .collect();
    assert!(bad.is_empty(), "edges LAYERS does not allow:\n{}", bad.join("\n"));
}

#[test]
fn the_reader_finds_inline_paths_re_exports_and_climbs_to_the_root() {
    let code = code_of(
        "use crate::judge::x;\npub use crate::stats::y;\nfn f() { crate::plan::z(); super::super::history::w(); }\n\
         // crate::runner::in_a_comment\nconst S: &str = \"crate::report::in_a_string\";\nuse crate::{app, base::units};\n\
         #[cfg(test)]\nmod tests { use crate::session::t; }\n",
    );
    let found = uses_of(&["results".into(), "metric".into()], &code);
    let want: BTreeSet<String> = ["judge", "stats", "plan", "history", "app", "base"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}

/// The folders the README's Layout table names in its module column
/// (`history/`), and the rooms it names for `history/` (`store/`, …).
fn readme_layout() -> (BTreeSet<String>, BTreeSet<String>) {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table = readme.split("## Layout").nth(1).unwrap().split("\n## ").next().unwrap();
    let (mut modules, mut rooms) = (BTreeSet::new(), BTreeSet::new());
    for line in table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| floor"))
    {
        let columns: Vec<&str> = line.split(" | ").collect();
        let ticked = |text: &str| -> Vec<String> {
            text.split('`')
                .skip(1)
                .step_by(2)
                .filter(|t| t.ends_with('/'))
                .map(|t| t.trim_end_matches('/').to_string())
                .collect()
        };
        let named = ticked(columns[1]);
        if named == ["history"] {
            rooms.extend(ticked(columns[2]));
        }
        modules.extend(named);
    }
    (modules, rooms)
}

/// The folders directly under `dir`.
fn folders(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect()
}

#[test]
fn the_readme_layout_names_every_module_and_every_room_of_history() {
    let (modules, rooms) = readme_layout();
    let mut want = folders(&src());
    want.remove("bin");
    assert_eq!(modules, want, "README.md's Layout table against the folders of src/");
    assert_eq!(
        rooms,
        folders(&src().join("history")),
        "README.md's history/ row against src/history/"
    );
}

/// The modules a layer shows by name besides what its `mod.rs` re-exports:
/// namespaces whose name says what is in them. Every other module under a
/// top-level module (and under each room of `history`) is private, so a
/// call from outside reaches it only through a re-export, and the compiler
/// refuses one that goes past. A module made public has to be named here.
const NAMESPACES: &[(&str, &[&str])] = &[
    // Shared nouns and pure statistics, one file per idea.
    (
        "base",
        &[
            "child",
            "digest",
            "folder",
            "metric",
            "order",
            "outcome",
            "output",
            "parallel",
            "params",
            "placeholder",
            "private",
            "redact",
            "sink",
            "text",
            "units",
        ],
    ),
    (
        "stats",
        &[
            "bootstrap",
            "changepoint",
            "linear",
            "order",
            "robust",
            "steady",
            "summary",
        ],
    ),
    // What main.rs calls before any subcommand.
    ("exec", &["guard", "helper", "interrupt"]),
    ("app", &["cli", "exit"]),
    // One module per output format.
    ("report", &["formats"]),
    // The one git toolbox of a revisions run.
    ("revisions", &["git"]),
    // The wing's rooms.
    ("history", &["bisect", "judge", "runs", "site", "store"]),
];

/// Each `mod` line of a `mod.rs`: (name, visibility as written).
fn declared_modules(mod_rs: &Path) -> Vec<(String, String)> {
    let code = strip_test_items(&code_of(&fs::read_to_string(mod_rs).unwrap()));
    let mut out = Vec::new();
    for line in code.lines().map(str::trim) {
        let Some(rest) = line.strip_suffix(';') else { continue };
        let (vis, name) = match rest.rsplit_once("mod ") {
            Some((vis, name)) if !name.contains(' ') && (vis.is_empty() || vis.starts_with("pub")) => {
                (vis.trim().to_string(), name.to_string())
            }
            _ => continue,
        };
        out.push((name, vis));
    }
    out
}

/// Whether a module declared `vis` under `parent` keeps within the face.
fn within_face(parent: &str, name: &str, vis: &str) -> bool {
    let named = NAMESPACES
        .iter()
        .any(|(p, names)| *p == parent && names.contains(&name));
    let room_of_history = parent.starts_with("history/");
    vis.is_empty() || named || (room_of_history && vis == "pub(in crate::history)")
}

fn faces_loosened(root: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut parents: Vec<String> = LAYERS.iter().map(|(m, _)| m.to_string()).collect();
    parents.extend(["bisect", "judge", "runs", "site", "store"].map(|r| format!("history/{r}")));
    for parent in parents {
        let mod_rs = root.join(&parent).join("mod.rs");
        if !mod_rs.is_file() {
            continue;
        }
        for (name, vis) in declared_modules(&mod_rs) {
            if !within_face(&parent, &name, &vis) {
                wrong.push(format!("src/{parent}/mod.rs: `{vis} mod {name}`"));
            }
        }
    }
    wrong
}

#[test]
fn each_layer_shows_a_face_and_hides_the_rest() {
    let wrong = faces_loosened(&src());
    assert!(
        wrong.is_empty(),
        "modules shown past their layer's face (make them private and re-export what callers \
         need from the mod.rs, or name the namespace in NAMESPACES):\n  {}",
        wrong.join("\n  ")
    );
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![warn(unreachable_pub)]"),
        "lib.rs no longer warns on an unreachable `pub`"
    );
}

#[test]
fn the_face_check_finds_a_module_made_public() {
    let dir = tempfile::tempdir().unwrap();
    for (parent, text) in [
        (
            "judge",
            "mod pair;\npub mod verdict;\npub(crate) use pair::judge_pair;\n",
        ),
        (
            "history/site",
            "pub(in crate::history) mod model;\npub(crate) mod read;\n",
        ),
        ("report", "pub mod formats;\nmod files;\n"),
    ] {
        fs::create_dir_all(dir.path().join(parent)).unwrap();
        fs::write(dir.path().join(parent).join("mod.rs"), text).unwrap();
    }
    assert_eq!(
        faces_loosened(dir.path()),
        [
            "src/judge/mod.rs: `pub mod verdict`",
            "src/history/site/mod.rs: `pub(crate) mod read`"
        ]
    );
}
