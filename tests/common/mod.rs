//! System fixtures the fault tests share: a small tmpfs (a disk that fills
//! up) and a pids cgroup (a system that refuses new processes). Each is
//! `None`, with the reason printed, where this machine does not allow it,
//! so the test that needs it skips rather than fails.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A small tmpfs, unmounted when dropped.
pub struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (`mount -o size=`), or says why it cannot.
    pub fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipped: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)");
            return None;
        }
        Some(Tmpfs(dir))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

/// A cgroup of the pids controller, removed when dropped (once empty).
pub struct PidsCgroup {
    pub dir: PathBuf,
}

impl PidsCgroup {
    /// A new pids cgroup (cgroup v1's pids hierarchy, or a cgroup v2 root
    /// that delegates pids), or says why there is none.
    pub fn create() -> Option<PidsCgroup> {
        let v2 = Path::new("/sys/fs/cgroup");
        let v2_delegates = fs::read_to_string(v2.join("cgroup.subtree_control"))
            .is_ok_and(|c| c.split_whitespace().any(|x| x == "pids"));
        let base = [PathBuf::from("/sys/fs/cgroup/pids")]
            .into_iter()
            .chain(v2_delegates.then(|| v2.to_path_buf()))
            .find(|b| b.join("cgroup.procs").is_file());
        let Some(base) = base else {
            eprintln!("skipped: no pids cgroup controller to write to here");
            return None;
        };
        let dir = base.join(format!("versus-test-{}", std::process::id()));
        if fs::create_dir(&dir).is_err() || !dir.join("pids.max").is_file() {
            eprintln!(
                "skipped: cannot create a pids cgroup under {} (needs root)",
                base.display()
            );
            let _ = fs::remove_dir(&dir);
            return None;
        }
        Some(PidsCgroup { dir })
    }

    pub fn pids_max(&self) -> PathBuf {
        self.dir.join("pids.max")
    }

    /// `sh -c 'echo $$ > cgroup.procs; exec "$@"'`: `program` started inside the cgroup.
    pub fn command(&self, program: &Path) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!(
                "echo $$ > {}; exec \"$@\"",
                self.dir.join("cgroup.procs").display()
            ))
            .arg("sh")
            .arg(program);
        c
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        let _ = fs::write(self.pids_max(), "max");
        // Processes left in it (an orphan guard finishing) leave within a moment.
        let start = Instant::now();
        while fs::remove_dir(&self.dir).is_err() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
