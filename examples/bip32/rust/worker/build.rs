// Records the compiler's version for `bip32-worker --version`.
fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(rustc).arg("--version").output();
    let version = out
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "rustc (unknown version)".into());
    println!("cargo:rustc-env=BIP32_WORKER_RUSTC={version}");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
