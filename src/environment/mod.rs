//! What machine and code the numbers come from: read once at the start of
//! a run (`collect`), with the CPU's details (`cpu`), the commits of versus
//! and the suite (`git`), and the load sampled through the run (`load`).

mod cpu;
mod git;
mod load;

pub(crate) use cpu::identity as cpu_identity;
pub(crate) use git::{of_folder as git_of_folder, run as run_git};
pub(crate) use load::{EVERY as LOAD_EVERY, ProcProbe, STEAL_WARN, Sampler as LoadSampler};

use std::fs;
use std::path::Path;
use std::process::Stdio;

use sha2::{Digest, Sha256};

use crate::base::child;
use crate::results::{Environment, Machine};

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

/// Reads the machine's description. `memory_limit_mechanism` comes from the executor.
pub(crate) fn collect(memory_limit_mechanism: &str) -> Environment {
    let mut env = describe(memory_limit_mechanism);
    env.machine = Some(machine(&env.cpu_model, env.cores));
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
        machine: None,
        services: Default::default(),
        versus_commit: git::of_versus(),
        cpu: cpu::read(),
        load: None,
        speed: None,
    }
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// This machine's identity (see `machine_id`) and host name.
pub(crate) fn machine(cpu_model: &str, cores: usize) -> Machine {
    let hostname = hostname();
    let os_id = ["/etc/machine-id", "/var/lib/dbus/machine-id"]
        .iter()
        .find_map(|p| read(p).map(|t| t.trim().to_string()).filter(|t| !t.is_empty()));
    Machine {
        id: machine_id(os_id.as_deref(), Some(&hostname), cpu_model, cores),
        hostname,
    }
}

/// A stable identity of a machine: 16 hex digits of SHA-256 over the OS's
/// machine id (`/etc/machine-id`, else the host name), the CPU model and the
/// core count. It survives reboots and renames of the suite, and changes when
/// the hardware does, which is when timings stop comparing. The raw machine
/// id is never written: systemd asks that it stay private to the machine.
pub(crate) fn machine_id(os_machine_id: Option<&str>, hostname: Option<&str>, cpu_model: &str, cores: usize) -> String {
    let base = os_machine_id.or(hostname).unwrap_or("unknown");
    let digest = Sha256::digest(format!("versus machine\n{base}\n{cpu_model}\n{cores}").as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a file's bytes, in hex; None when it cannot be read.
pub(crate) fn file_sha256(path: &Path) -> Option<String> {
    let bytes = fs::read(path).ok()?;
    Some(Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect())
}

/// Runs a version command and returns the first non-empty line of its output
/// (stdout, else stderr), or a note saying why there is none.
pub(crate) fn version_of(argv: &[String], cwd: &Path, env: &[(String, String)]) -> String {
    let Some((prog, args)) = argv.split_first() else {
        return "(no version command)".into();
    };
    let out = child::command(prog)
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
