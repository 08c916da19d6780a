//! What the document records of the machine and the code's version: the
//! CPU, the load over the run, and git commits. The `environment` layer
//! probes them; these are the recorded answers.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A git commit and whether the working tree had changes beside it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct GitState {
    /// The full commit hash of `HEAD`.
    pub commit: String,
    /// Tracked files differed from the commit (untracked files do not count:
    /// results written into the repository would make every run dirty).
    pub dirty: bool,
}

/// What `/proc/cpuinfo` and cpufreq say of the CPU, where they say it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct CpuDetails {
    /// `vendor_id` (x86) or `CPU implementer` (Arm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    /// `cpu family`, `model`, `stepping` (x86) or `CPU architecture`,
    /// `CPU part`, `CPU revision` (Arm), as the kernel writes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stepping: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub microcode: Option<String>,
    /// `cache size` of the first CPU, e.g. "1024 KB".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<String>,
    /// Of `NOTABLE_FLAGS`, those the CPU has, in that order.
    pub flags: Vec<String>,
    /// How many flags the CPU lists in all.
    pub flag_count: usize,
    /// The `hypervisor` flag: a virtual machine, whose CPU time may be taken by its host.
    pub virtual_machine: bool,
    /// Logical CPUs in `/proc/cpuinfo` (the machine's; `cores` is what versus may use).
    pub logical_cpus: usize,
    /// Distinct (physical id, core id) pairs; null where not listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_cores: Option<usize>,
    /// Distinct physical ids; null where not listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sockets: Option<usize>,
    /// cpu0's frequency when the run started (cpufreq's `scaling_cur_freq`,
    /// else `cpu MHz`), and its maximum (`cpuinfo_max_freq`), in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frequency_mhz: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_frequency_mhz: Option<f64>,
}

/// The load over a run, as results.json records it (`environment.load`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunLoad {
    /// Readings taken (the first when the run started, the last when it ended).
    pub samples: usize,
    /// Seconds between readings while the run went.
    pub every_s: f64,
    /// The 1-minute load average over the readings; null where unreadable.
    pub load_min: Option<f64>,
    pub load_median: Option<f64>,
    pub load_max: Option<f64>,
    /// CPUs of the machine (`/proc/stat`), which the shares below are of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<usize>,
    /// Shares (0 to 1) of the machine's CPU time over the run: busy in
    /// all, versus and its children, everything else, and stolen by the
    /// hypervisor. Null where `/proc/stat` or `getrusage` was unreadable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy_share: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_share: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub others_share: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_share: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Environment {
    pub versus_version: String,
    pub cpu_model: String,
    pub cores: usize,
    pub memory_bytes: u64,
    pub os: String,
    pub kernel: String,
    /// 1-minute load average when the run started.
    pub load_average: Option<f64>,
    /// CPU frequency governor of cpu0, where readable.
    pub cpu_governor: Option<String>,
    /// "cgroup v2", "cgroup v1" or "RLIMIT_AS".
    pub memory_limit_mechanism: String,
    pub implementations: IndexMap<String, ImplementationInfo>,
    /// Which machine this is, so pieces of a sharded run keep their identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<Machine>,
    /// The suite's background services, in suite order.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub services: IndexMap<String, ServiceInfo>,
    /// The commit versus was built from, when built from a git checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus_commit: Option<crate::results::GitState>,
    /// The CPU beyond `cpu_model`: family, model, stepping, microcode,
    /// notable flags, topology, frequency (`environment::cpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<crate::results::CpuDetails>,
    /// The machine's load sampled through the run, and other processes'
    /// share of its CPU time (`environment::load`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<crate::results::RunLoad>,
    /// The machine's own speed through the run: a fixed workload timed
    /// between rounds (`exec::speed`), so a later run can tell a machine
    /// that changed from cells that did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<SpeedReadings>,
}

/// Readings of the fixed workload of `exec::speed`, in the order taken.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct SpeedReadings {
    /// What was timed; readings compare only under the same name.
    pub workload: String,
    /// Each reading's time, in nanoseconds.
    pub samples_ns: Vec<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ImplementationInfo {
    /// First line of the implementation's `version` command, or null.
    pub version: Option<String>,
    pub note: Option<String>,
    /// The suite's `artifact` file for this implementation, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<Artifact>,
}

/// A file that belongs to an implementation (a binary, a WASM module), and its size.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Artifact {
    /// As the suite names it, placeholders filled in.
    pub path: String,
    /// Its size when the run started; null when it could not be read.
    pub bytes: Option<u64>,
}

/// A background service as the run started it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ServiceInfo {
    /// The command as run, placeholders filled in.
    pub command: String,
    /// The free port versus gave it (`{port}`).
    pub port: Option<u16>,
    /// Its `version` command's first line, when the suite gives one.
    pub version: Option<String>,
    /// Where its output went during the run.
    pub log: String,
}

/// A machine's identity: stable across runs and reboots, and not the raw
/// `/etc/machine-id` (which is meant to stay private to the machine).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct Machine {
    /// First 16 hex digits of SHA-256 over the machine id (`/etc/machine-id`),
    /// or over the hostname where there is none.
    pub id: String,
    pub hostname: String,
}
