//! Embeds the worker conformance scenarios (conformance/*.json) into the
//! binary, so `versus conformance` works wherever versus is installed.

use std::fs;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .expect("conformance/ exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    let mut code = String::from(
        "/// (file stem, JSON text) of every conformance scenario.\npub const SCENARIOS: &[(&str, &str)] = &[\n",
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
