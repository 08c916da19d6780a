//! What machine the numbers come from, read once at the start of a run.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::results::Environment;

fn read(path: &str) -> Option<String> {
    fs::read_to_string(path).ok()
}

fn cpu_model() -> String {
    read("/proc/cpuinfo")
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn memory_bytes() -> u64 {
    read("/proc/meminfo")
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()))
        })
        .map_or(0, |kb| kb * 1024)
}

fn os_name() -> String {
    read("/etc/os-release")
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string()))
        })
        .unwrap_or_else(|| std::env::consts::OS.to_string())
}

fn kernel() -> String {
    // SAFETY: uname fills a zeroed struct of fixed-size C strings.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut u) } != 0 {
        return "unknown".into();
    }
    let field = |f: &[libc::c_char]| {
        let bytes: Vec<u8> = f.iter().take_while(|c| **c != 0).map(|c| *c as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    format!("{} {} {}", field(&u.sysname), field(&u.release), field(&u.machine))
}

/// The host name, from uname.
fn hostname() -> Option<String> {
    // SAFETY: uname fills a zeroed struct of fixed-size C strings.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    let bytes: Vec<u8> = u.nodename.iter().take_while(|c| **c != 0).map(|c| *c as u8).collect();
    Some(String::from_utf8_lossy(&bytes).into_owned()).filter(|h| !h.is_empty())
}

/// A stable identity of the machine: 16 hex digits of SHA-256 over the OS's
/// machine id (`/etc/machine-id`, else the host name), the CPU model and the
/// core count. It survives reboots and renames of the suite, and changes when
/// the hardware does, which is when timings stop comparing.
pub fn machine_id(os_machine_id: Option<&str>, hostname: Option<&str>, cpu_model: &str, cores: usize) -> String {
    use sha2::{Digest, Sha256};
    let base = os_machine_id.or(hostname).unwrap_or("unknown");
    let digest = Sha256::digest(format!("versus machine\n{base}\n{cpu_model}\n{cores}").as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Reads the machine's description. `memory_limit_mechanism` comes from the executor.
pub fn collect(memory_limit_mechanism: &str) -> Environment {
    let mut env = describe(memory_limit_mechanism);
    let os_id = read("/etc/machine-id").or_else(|| read("/var/lib/dbus/machine-id"));
    env.machine_id = Some(machine_id(
        os_id.as_deref().map(str::trim).filter(|s| !s.is_empty()),
        env.hostname.as_deref(),
        &env.cpu_model,
        env.cores,
    ));
    env
}

fn describe(memory_limit_mechanism: &str) -> Environment {
    Environment {
        versus_version: env!("CARGO_PKG_VERSION").to_string(),
        cpu_model: cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        memory_bytes: memory_bytes(),
        os: os_name(),
        kernel: kernel(),
        load_average: read("/proc/loadavg").and_then(|t| t.split_whitespace().next().and_then(|v| v.parse().ok())),
        cpu_governor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").map(|g| g.trim().to_string()),
        memory_limit_mechanism: memory_limit_mechanism.to_string(),
        implementations: Default::default(),
        hostname: hostname(),
        machine_id: None,
    }
}

/// Runs a version command and returns the first non-empty line of its output
/// (stdout, else stderr), or a note saying why there is none.
pub fn version_of(argv: &[String], cwd: &Path, env: &[(String, String)]) -> String {
    let Some((prog, args)) = argv.split_first() else {
        return "(no version command)".into();
    };
    let out = Command::new(prog)
        .args(args)
        .current_dir(cwd)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output();
    match out {
        Ok(o) => {
            let text = [o.stdout, o.stderr]
                .iter()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .find_map(|t| t.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_string));
            match (text, o.status.success()) {
                (Some(t), true) => t,
                (Some(t), false) => format!("(version command failed: {t})"),
                (None, _) => "(version command printed nothing)".into(),
            }
        }
        Err(e) => format!("(version command could not run: {e})"),
    }
}
