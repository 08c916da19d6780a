//! What a background service uses while cells run: the CPU time and the peak
//! resident memory of its process group, read from outside without slowing
//! it down.
//!
//! CPU time comes from each process's CPU clock (`clock_getcpuclockid`),
//! which counts every thread to the nanosecond, so the time one request
//! costs the service is not lost to the 10 ms ticks of `/proc/<pid>/stat`.
//! Peak memory is the kernel's high-water mark (`VmHWM`), set back to the
//! current resident size before each stretch by writing 5 to
//! `/proc/<pid>/clear_refs`; the peak of a group is the sum of its members'
//! peaks, exact for a single process and an upper bound otherwise. Members
//! are found by process group (a service runs in its own group) and looked
//! up again at `refresh`, once per group of cells, not per run.

use std::fs;

/// One service's use over one stretch (between `begin` and `end`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Reading {
    pub cpu_ns: u64,
    /// None when the kernel would not reset or report the peak.
    pub peak_rss_bytes: Option<u64>,
}

/// Meters the process groups of running services.
pub(crate) struct UsageMeter {
    /// (name, process group id), in the suite's order.
    groups: Vec<(String, i32)>,
    members: Vec<Vec<i32>>,
    cpu_at_begin: Vec<u64>,
    peak_reset: Vec<bool>,
}

impl UsageMeter {
    pub(crate) fn new(groups: Vec<(String, i32)>) -> Self {
        let mut meter = UsageMeter {
            members: vec![vec![]; groups.len()],
            cpu_at_begin: vec![0; groups.len()],
            peak_reset: vec![false; groups.len()],
            groups,
        };
        meter.refresh();
        meter
    }

    pub(crate) fn names(&self) -> Vec<String> {
        self.groups.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Looks up each service's processes again (it may have started workers).
    pub(crate) fn refresh(&mut self) {
        let all = processes();
        for (i, (_, pgid)) in self.groups.iter().enumerate() {
            let mut pids: Vec<i32> = all.iter().filter(|(_, g)| g == pgid).map(|(p, _)| *p).collect();
            if !pids.contains(pgid) {
                pids.push(*pgid);
            }
            self.members[i] = pids;
        }
    }

    /// Starts a stretch: resets the peaks and notes the CPU clocks.
    pub(crate) fn begin(&mut self) {
        for (i, pids) in self.members.iter().enumerate() {
            self.peak_reset[i] = pids.iter().all(|p| reset_peak(*p));
            self.cpu_at_begin[i] = pids.iter().filter_map(|p| cpu_ns(*p)).sum();
        }
    }

    /// Ends a stretch: each service's CPU time since `begin` and its peak.
    pub(crate) fn end(&mut self) -> Vec<Reading> {
        self.members
            .iter()
            .enumerate()
            .map(|(i, pids)| {
                let cpu: u64 = pids.iter().filter_map(|p| cpu_ns(*p)).sum();
                let peaks: Option<Vec<u64>> = pids.iter().map(|p| peak_rss(*p)).collect();
                Reading {
                    cpu_ns: cpu.saturating_sub(self.cpu_at_begin[i]),
                    peak_rss_bytes: peaks.filter(|_| self.peak_reset[i]).map(|p| p.iter().sum()),
                }
            })
            .collect()
    }
}

/// Every process as (pid, process group), from `/proc/<pid>/stat`.
fn processes() -> Vec<(i32, i32)> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return vec![];
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            process_group(&stat).map(|g| (pid, g))
        })
        .collect()
}

/// The process group in a `/proc/<pid>/stat` line: the third field after
/// the command name, which is in parentheses and may hold spaces.
fn process_group(stat: &str) -> Option<i32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(2)?.parse().ok()
}

/// The process's CPU time (all threads, user and system) in nanoseconds.
fn cpu_ns(pid: i32) -> Option<u64> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: plain calls with a valid out-pointer; a gone process is an error return.
    let ts = unsafe {
        if libc::clock_getcpuclockid(pid, &mut clock) != 0 {
            return None;
        }
        let mut ts = std::mem::zeroed::<libc::timespec>();
        if libc::clock_gettime(clock, &mut ts) != 0 {
            return None;
        }
        ts
    };
    Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// Sets the process's high-water mark back to its current resident size.
fn reset_peak(pid: i32) -> bool {
    fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

/// The process's peak resident memory since its last reset (`VmHWM`).
fn peak_rss(pid: i32) -> Option<u64> {
    super::rss::image_peak(&pid.to_string()).map(|b| b.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn the_process_group_is_read_past_a_command_name_with_spaces() {
        assert_eq!(process_group("123 (a b) c) S 1 456 456 0"), Some(456));
        assert_eq!(process_group("garbage"), None);
    }

    #[test]
    fn a_busy_service_shows_cpu_time_and_its_own_peak() {
        use std::io::{BufRead, BufReader, Write};
        use std::os::unix::process::CommandExt;
        // A real process in its own group: on a line from us it computes,
        // fills 64 MB and frees them, says so, then idles.
        // It says it is ready first: metered before then, it could still be
        // between fork and exec, whose memory is not the one measured after.
        let script = "import sys, time\nprint('ready', flush=True)\nsys.stdin.readline()\n\
                      sum(range(3_000_000))\nx = b'a' * 64_000_000\ndel x\nprint('done', flush=True)\n\
                      time.sleep(30)\n";
        let mut child = Command::new("python3")
            .args(["-c", script])
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let pgid = child.id() as i32;
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready");
        let mut meter = UsageMeter::new(vec![("svc".into(), pgid)]);
        meter.begin();
        writeln!(child.stdin.as_mut().unwrap(), "go").unwrap();
        line.clear();
        out.read_line(&mut line).unwrap();
        let busy = meter.end();
        meter.begin();
        let idle = meter.end();
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        let _ = child.wait();
        assert_eq!(line.trim(), "done");
        assert!(busy[0].cpu_ns > 1_000_000, "{busy:?}");
        assert!(idle[0].cpu_ns < busy[0].cpu_ns, "{idle:?} vs {busy:?}");
        let (Some(busy_peak), Some(idle_peak)) = (busy[0].peak_rss_bytes, idle[0].peak_rss_bytes) else {
            panic!("no peak: {busy:?} {idle:?}");
        };
        assert!(busy_peak > 64_000_000, "{busy_peak}");
        assert!(
            idle_peak + 32_000_000 < busy_peak,
            "the peak was not reset: {idle_peak} vs {busy_peak}"
        );
    }
}
