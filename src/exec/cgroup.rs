//! Memory limits per run, and telling an out-of-memory kill apart from any
//! other failure.
//!
//! In order of preference: a cgroup v2 memory controller, a cgroup v1 memory
//! controller (still what some container hosts give), then `RLIMIT_AS`. With
//! a cgroup the kernel's own `oom_kill` counter says whether the run was
//! killed for memory, which is exact. `RLIMIT_AS` limits address space, not
//! resident memory, and a failed allocation surfaces however the runtime
//! chooses; there a failed run counts as out of memory only when its standard
//! error says so in one of the usual ways (documented in docs/suite-format.md).

use std::ffi::CString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::base::units::Bytes;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    V2,
    V1,
}

/// How memory limits are enforced on this machine.
pub(super) enum MemoryLimiter {
    Cgroup { kind: Kind, base: PathBuf },
    Rlimit,
}

/// Phrases runtimes print when an allocation fails (C, Python, Java, Node, Go, Rust).
const OOM_PHRASES: &[&str] = &[
    "out of memory",
    "cannot allocate memory",
    "memoryerror",
    "outofmemoryerror",
    "heap out of memory",
    "memory allocation of",
    "failed to allocate",
    "std::bad_alloc",
];

static NEXT_RUN: AtomicU64 = AtomicU64::new(0);

fn own_cgroup(controller: Option<&str>) -> Option<String> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = match controller {
            None => ctrls.is_empty(),
            Some(c) => ctrls.split(',').any(|x| x == c),
        };
        hit.then(|| path.to_string())
    })
}

fn try_base(kind: Kind) -> Option<PathBuf> {
    let (mount, rel, probe) = match kind {
        Kind::V2 => {
            let rel = own_cgroup(None)?;
            let mount = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
                .into_iter()
                .find(|m| Path::new(m).join("cgroup.controllers").exists())?;
            (mount, rel, "memory.max")
        }
        Kind::V1 => (
            "/sys/fs/cgroup/memory",
            own_cgroup(Some("memory"))?,
            "memory.limit_in_bytes",
        ),
    };
    let base = Path::new(mount)
        .join(rel.trim_start_matches('/'))
        .join(format!("versus-{}", std::process::id()));
    fs::create_dir_all(&base).ok()?;
    if base.join(probe).exists() {
        Some(base)
    } else {
        let _ = fs::remove_dir(&base);
        None
    }
}

impl MemoryLimiter {
    pub(super) fn detect() -> Self {
        for kind in [Kind::V2, Kind::V1] {
            if let Some(base) = try_base(kind) {
                return MemoryLimiter::Cgroup { kind, base };
            }
        }
        MemoryLimiter::Rlimit
    }

    pub(super) fn mechanism(&self) -> &'static str {
        match self {
            MemoryLimiter::Cgroup { kind: Kind::V2, .. } => "cgroup v2",
            MemoryLimiter::Cgroup { kind: Kind::V1, .. } => "cgroup v1",
            MemoryLimiter::Rlimit => "RLIMIT_AS",
        }
    }

    /// Sets up the limit for one run.
    pub(super) fn prepare(&self, limit: Bytes) -> std::io::Result<RunLimit> {
        match self {
            MemoryLimiter::Rlimit => Ok(RunLimit::Rlimit(limit)),
            MemoryLimiter::Cgroup { kind, base } => {
                let dir = base.join(format!("run-{}", NEXT_RUN.fetch_add(1, Ordering::Relaxed)));
                fs::create_dir(&dir)?;
                let bytes = limit.0.to_string();
                match kind {
                    Kind::V2 => {
                        fs::write(dir.join("memory.max"), &bytes)?;
                        // No swap, so the limit means resident memory (absent when swap accounting is off).
                        let _ = fs::write(dir.join("memory.swap.max"), "0");
                    }
                    Kind::V1 => {
                        fs::write(dir.join("memory.limit_in_bytes"), &bytes)?;
                        let _ = fs::write(dir.join("memory.memsw.limit_in_bytes"), &bytes);
                    }
                }
                let procs = CString::new(dir.join("cgroup.procs").into_os_string().into_encoded_bytes())
                    .map_err(std::io::Error::other)?;
                Ok(RunLimit::Cgroup {
                    kind: *kind,
                    dir,
                    procs,
                })
            }
        }
    }
}

impl Drop for MemoryLimiter {
    fn drop(&mut self) {
        if let MemoryLimiter::Cgroup { base, .. } = self {
            let _ = fs::remove_dir(base);
        }
    }
}

/// The limit of one run: applied in the child before exec, read after exit.
pub(super) enum RunLimit {
    Cgroup { kind: Kind, dir: PathBuf, procs: CString },
    Rlimit(Bytes),
}

/// What the child does between fork and exec. Holds only data prepared
/// before fork, so `apply` needs no allocation.
pub(super) enum ChildHook {
    JoinCgroup(CString),
    Rlimit(u64),
}

impl ChildHook {
    /// Runs in the forked child: only async-signal-safe calls.
    pub(super) fn apply(&self) -> std::io::Result<()> {
        match self {
            ChildHook::JoinCgroup(procs) => {
                // Writing "0" moves the writing process itself (cgroup v1 and v2).
                // SAFETY: procs is a valid C string; the fd is closed before returning.
                unsafe {
                    let fd = libc::open(procs.as_ptr(), libc::O_WRONLY);
                    if fd < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    let n = libc::write(fd, b"0".as_ptr().cast(), 1);
                    libc::close(fd);
                    if n != 1 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            }
            ChildHook::Rlimit(bytes) => {
                let lim = libc::rlimit {
                    rlim_cur: *bytes,
                    rlim_max: *bytes,
                };
                // SAFETY: lim is a valid rlimit.
                if unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) } != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            }
        }
    }
}

impl RunLimit {
    pub(super) fn child_hook(&self) -> ChildHook {
        match self {
            RunLimit::Cgroup { procs, .. } => ChildHook::JoinCgroup(procs.clone()),
            RunLimit::Rlimit(b) => ChildHook::Rlimit(b.0),
        }
    }

    /// After the run: whether it was killed for memory (cgroup only; see
    /// `rlimit_says_oom` for the fallback). Removes the run's cgroup.
    pub(super) fn finish(self) -> bool {
        match self {
            RunLimit::Rlimit(_) => false,
            RunLimit::Cgroup { kind, dir, .. } => {
                let file = match kind {
                    Kind::V2 => "memory.events",
                    Kind::V1 => "memory.oom_control",
                };
                let kills = fs::read_to_string(dir.join(file))
                    .ok()
                    .and_then(|t| {
                        t.lines()
                            .find_map(|l| l.strip_prefix("oom_kill ").and_then(|n| n.trim().parse::<u64>().ok()))
                    })
                    .unwrap_or(0);
                // The group was killed already; its members may take a moment to be gone.
                for _ in 0..200 {
                    if fs::remove_dir(&dir).is_ok() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                kills > 0
            }
        }
    }

    pub(super) fn is_rlimit(&self) -> bool {
        matches!(self, RunLimit::Rlimit(_))
    }
}

/// Under RLIMIT_AS: whether a failed run's standard error reads like a failed allocation.
pub(super) fn rlimit_says_oom(stderr_tail: &str) -> bool {
    let lower = stderr_tail.to_ascii_lowercase();
    OOM_PHRASES.iter().any(|p| lower.contains(p))
}
