//! Embeds the worker conformance scenarios (conformance/*.json) into the
//! binary, so `versus conformance` works wherever versus is installed, and
//! the git commit it was built from (with whether the tree was dirty), so
//! every results file can say which versus wrote it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `VERSUS_GIT_COMMIT` and `VERSUS_GIT_DIRTY` when this crate is the top of
/// a git checkout (a crate unpacked inside another repository is not that
/// repository's commit). The script reruns when the commit, the index or
/// the sources change, so "dirty" follows edits.
fn embed_commit(manifest: &Path) {
    let same = |a: &Path, b: &Path| fs::canonicalize(a).ok() == fs::canonicalize(b).ok();
    let Some(top) = git(manifest, &["rev-parse", "--show-toplevel"]) else {
        return;
    };
    if !same(Path::new(&top), manifest) {
        return;
    }
    let (Some(commit), Some(status)) = (
        git(manifest, &["rev-parse", "HEAD"]),
        git(manifest, &["status", "--porcelain", "--untracked-files=no"]),
    ) else {
        return;
    };
    println!("cargo:rustc-env=VERSUS_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=VERSUS_GIT_DIRTY={}", u8::from(!status.is_empty()));
    let dirs = ["--git-dir", "--git-common-dir"].map(|a| git(manifest, &["rev-parse", a]).map(PathBuf::from));
    let mut watched: Vec<PathBuf> = ["src", "Cargo.toml", "Cargo.lock"]
        .iter()
        .map(|p| manifest.join(p))
        .collect();
    if let [Some(own), Some(common)] = &dirs {
        let at = |d: &Path| {
            if d.is_absolute() {
                d.to_path_buf()
            } else {
                manifest.join(d)
            }
        };
        watched.extend([at(own).join("HEAD"), at(own).join("index")]);
        watched.extend([at(common).join("refs/heads"), at(common).join("packed-refs")]);
    }
    // A missing path would make cargo run the script on every build.
    for p in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}

fn main() {
    // Read when the script runs, not when it was compiled: a script built
    // for one checkout is reused by cargo for another sharing its target
    // folder (git worktrees), and must describe the one it builds.
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    embed_commit(&manifest);
    let dir = manifest.join("conformance");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .expect("conformance/ exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    let mut code = String::from(
        "/// (file stem, JSON text) of every conformance scenario.\npub(crate) const SCENARIOS: &[(&str, &str)] = &[\n",
    );
    for p in entries {
        println!("cargo:rerun-if-changed={}", p.display());
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        code.push_str(&format!(
            "    ({stem:?}, include_str!({:?})),\n",
            p.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("scenarios.rs");
    fs::write(out, code).unwrap();
}
