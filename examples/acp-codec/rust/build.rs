//! Records the versions the binaries were built with (from Cargo.lock and
//! rustc), for `acp-cold --version`, which the suite reports.
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let version = |name: &str| {
        let key = format!("name = \"{name}\"\nversion = \"");
        lock.find(&key)
            .map(|i| lock[i + key.len()..].split('"').next().unwrap_or("?").to_owned())
            .unwrap_or_else(|| "?".to_owned())
    };
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    println!(
        "cargo:rustc-env=ACP_CODEC_VERSIONS=agent-client-protocol {} (schema {}), serde_json {}, {}",
        version("agent-client-protocol"),
        version("agent-client-protocol-schema"),
        version("serde_json"),
        rustc
    );
}
