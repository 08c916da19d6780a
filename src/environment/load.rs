//! What else the machine did while the suite ran. The load average at the
//! start says little about a run of an hour: a background thread reads the
//! machine every few seconds — the 1-minute load average, and the CPU time
//! of the whole machine from `/proc/stat` — and once more when the run
//! ends, after every process versus started has been waited for. Then the
//! machine's busy time over the run, less versus's own CPU time and its
//! children's (`getrusage`, which counts every child once it is reaped),
//! is what other processes took: a share of the machine that timings were
//! competing with. Time the hypervisor gave to other guests (`steal`) is
//! counted apart.
//!
//! The readings come from a `Probe`, so tests feed the sampler and the
//! summary fake readings; nothing here asserts how long anything takes.

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::results::{Contention, RunLoad};

/// How often the machine is read while the run goes.
pub(crate) const EVERY: Duration = Duration::from_secs(2);
/// Other processes' share of the machine's CPU time from which the run is
/// warned about: on 2 CPUs, a fifth of one CPU on average.
pub(super) const OTHERS_WARN: f64 = 0.10;
/// Steal from which the run is warned about.
pub(crate) const STEAL_WARN: f64 = 0.05;

/// The machine's CPU time so far, in clock ticks, over all its CPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CpuTicks {
    /// user, nice, system, irq and softirq.
    pub busy: u64,
    /// idle and iowait.
    pub idle: u64,
    /// Time the hypervisor ran someone else.
    pub steal: u64,
    /// CPUs `/proc/stat` lists.
    pub cpus: usize,
}

/// One reading of the machine.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Reading {
    pub load_1m: Option<f64>,
    pub ticks: Option<CpuTicks>,
    /// CPU time of versus and of every child it has reaped, in ns.
    pub own_cpu_ns: Option<u64>,
}

/// Where readings come from.
pub(crate) trait Probe: Send + 'static {
    fn read(&mut self) -> Reading;
    /// Clock ticks per second of `CpuTicks`.
    fn ticks_per_s(&self) -> f64;
}

impl RunLoad {
    /// Other processes' CPU time in CPUs on average ("0.46 of 2 CPUs").
    pub fn others_cpus(&self) -> Option<f64> {
        Some(self.others_share? * self.cpus? as f64)
    }

    /// What other work wanted of the machine, when it took a share worth
    /// warning about: what it took (others and steal), or what the run
    /// queue says it asked for (the load average less versus's own CPUs),
    /// whichever is more.
    pub fn contention(&self) -> Option<Contention> {
        if !self.contended() {
            return None;
        }
        let cpus = self.cpus? as f64;
        let took = (self.others_share.unwrap_or(0.0) + self.steal_share.unwrap_or(0.0)) * cpus;
        let asked = match (self.load_median, self.own_share) {
            (Some(load), Some(own)) => load - own * cpus,
            _ => 0.0,
        };
        Some(Contention {
            cpus,
            others_cpus: took.max(asked),
        })
    }

    /// Whether others (or the hypervisor) took a real share of the machine.
    pub fn contended(&self) -> bool {
        self.others_share.is_some_and(|s| s >= OTHERS_WARN) || self.steal_share.is_some_and(|s| s >= STEAL_WARN)
    }
}

/// The summary of `readings` (in order, the first at the start and the
/// last at the end); `None` without any.
pub(super) fn summarize(readings: &[Reading], ticks_per_s: f64, every: Duration) -> Option<RunLoad> {
    let (first, last) = (readings.first()?, readings.last()?);
    let mut loads: Vec<f64> = readings.iter().filter_map(|r| r.load_1m).collect();
    loads.sort_unstable_by(f64::total_cmp);
    let mut out = RunLoad {
        samples: readings.len(),
        every_s: every.as_secs_f64(),
        load_min: loads.first().copied(),
        load_median: (!loads.is_empty()).then(|| crate::stats::summary::median_of_sorted(&loads)),
        load_max: loads.last().copied(),
        cpus: None,
        busy_share: None,
        own_share: None,
        others_share: None,
        steal_share: None,
    };
    if let (Some(a), Some(b)) = (first.ticks, last.ticks) {
        let busy = b.busy.saturating_sub(a.busy) as f64;
        let steal = b.steal.saturating_sub(a.steal) as f64;
        let total = busy + steal + b.idle.saturating_sub(a.idle) as f64;
        if total > 0.0 {
            out.cpus = Some(b.cpus);
            out.busy_share = Some(busy / total);
            out.steal_share = Some(steal / total);
            if let (Some(x), Some(y)) = (first.own_cpu_ns, last.own_cpu_ns) {
                let own = y.saturating_sub(x) as f64 / 1e9 * ticks_per_s;
                out.own_share = Some((own / total).min(1.0));
                out.others_share = Some(((busy - own) / total).max(0.0));
            }
        }
    }
    Some(out)
}

/// A background thread reading a `Probe` until `finish`.
pub(crate) struct Sampler {
    stop: mpsc::Sender<()>,
    thread: JoinHandle<Vec<Reading>>,
    ticks_per_s: f64,
    every: Duration,
}

impl Sampler {
    /// Reads `probe` now, then every `every` until `finish`.
    pub(crate) fn start<P: Probe>(mut probe: P, every: Duration) -> Sampler {
        let (stop, stopped) = mpsc::channel::<()>();
        let ticks_per_s = probe.ticks_per_s();
        let thread = std::thread::spawn(move || {
            let mut readings = vec![probe.read()];
            // A message or a closed channel ends the run; a timeout is the next reading.
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                readings.push(probe.read());
            }
            readings.push(probe.read());
            readings
        });
        Sampler {
            stop,
            thread,
            ticks_per_s,
            every,
        }
    }

    /// Takes the last reading and summarises the run; call it once every
    /// child of the run has been waited for.
    pub(crate) fn finish(self) -> Option<RunLoad> {
        let _ = self.stop.send(());
        let readings = self.thread.join().ok()?;
        summarize(&readings, self.ticks_per_s, self.every)
    }
}

/// The machine through `/proc` and `getrusage`.
pub(crate) struct ProcProbe;

/// The aggregate "cpu" line of `/proc/stat`, and its count of "cpuN" lines.
pub(super) fn parse_stat(stat: &str) -> Option<CpuTicks> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    let cpus = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    // user nice system idle iowait irq softirq steal (guest time is inside user).
    Some(CpuTicks {
        busy: at(0) + at(1) + at(2) + at(5) + at(6),
        idle: at(3) + at(4),
        steal: at(7),
        cpus: cpus.max(1),
    })
}

fn rusage_ns(who: libc::c_int) -> Option<u64> {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(who, &mut u) } != 0 {
        return None;
    }
    let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
    Some(ns(u.ru_utime) + ns(u.ru_stime))
}

impl Probe for ProcProbe {
    fn read(&mut self) -> Reading {
        let text = |p: &str| std::fs::read_to_string(p).ok();
        Reading {
            load_1m: text("/proc/loadavg").and_then(|t| t.split_whitespace().next()?.parse().ok()),
            ticks: text("/proc/stat").as_deref().and_then(parse_stat),
            own_cpu_ns: rusage_ns(libc::RUSAGE_SELF)
                .zip(rusage_ns(libc::RUSAGE_CHILDREN))
                .map(|(a, b)| a + b),
        }
    }

    fn ticks_per_s(&self) -> f64 {
        // SAFETY: sysconf only reads a configuration value.
        let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if t > 0 { t as f64 } else { 100.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(load: f64, busy: u64, idle: u64, steal: u64, own_s: f64) -> Reading {
        Reading {
            load_1m: Some(load),
            ticks: Some(CpuTicks {
                busy,
                idle,
                steal,
                cpus: 2,
            }),
            own_cpu_ns: Some((own_s * 1e9) as u64),
        }
    }

    #[test]
    fn others_take_what_the_machine_was_busy_with_beyond_versus() {
        // 1000 ticks of machine time (10 s of 2 CPUs at 100 ticks/s): 600
        // busy, of which versus 3 s = 300 ticks; 20 stolen.
        let rs = [
            reading(0.5, 1000, 5000, 0, 1.0),
            reading(2.5, 1300, 5200, 10, 2.5),
            reading(1.0, 1600, 5380, 20, 4.0),
        ];
        let l = summarize(&rs, 100.0, EVERY).unwrap();
        assert_eq!(
            (l.samples, l.load_min, l.load_median, l.load_max),
            (3, Some(0.5), Some(1.0), Some(2.5))
        );
        assert_eq!(l.cpus, Some(2));
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-9;
        assert!(close(l.busy_share, 0.6) && close(l.own_share, 0.3) && close(l.others_share, 0.3));
        assert!(close(l.steal_share, 0.02) && close(l.others_cpus(), 0.6));
        assert!(l.contended());
        // versus alone: nobody else.
        let quiet = summarize(&[rs[0], reading(1.0, 1300, 5700, 0, 4.0)], 100.0, EVERY).unwrap();
        assert!(close(quiet.others_share, 0.0) && !quiet.contended());
        assert_eq!(summarize(&[], 100.0, EVERY), None);
    }

    #[test]
    fn unreadable_machines_give_what_they_can() {
        let bare = Reading {
            load_1m: Some(1.5),
            ..Default::default()
        };
        let l = summarize(&[bare, bare], 100.0, EVERY).unwrap();
        assert_eq!((l.load_median, l.others_share, l.busy_share), (Some(1.5), None, None));
    }

    #[test]
    fn proc_stat_is_read_by_its_columns() {
        let stat =
            "cpu  100 5 20 300 7 1 2 9 50 0\ncpu0 50 2 10 150 3 0 1 4 25 0\ncpu1 50 3 10 150 4 1 1 5 25 0\nintr 1\n";
        assert_eq!(
            parse_stat(stat),
            Some(CpuTicks {
                busy: 128,
                idle: 307,
                steal: 9,
                cpus: 2
            })
        );
    }

    /// Readings 1, 2, 3, … as load averages.
    struct Counting(f64);

    impl Probe for Counting {
        fn read(&mut self) -> Reading {
            self.0 += 1.0;
            Reading {
                load_1m: Some(self.0),
                ..Default::default()
            }
        }
        fn ticks_per_s(&self) -> f64 {
            100.0
        }
    }

    #[test]
    fn the_sampler_reads_at_the_start_and_at_the_end() {
        // However long the thread ran between, the first reading is the start's and the last the end's.
        let l = Sampler::start(Counting(0.0), Duration::from_millis(1))
            .finish()
            .unwrap();
        assert!(l.samples >= 2);
        assert_eq!((l.load_min, l.load_max), (Some(1.0), Some(l.samples as f64)));
        let slow = Sampler::start(Counting(0.0), Duration::from_secs(3600))
            .finish()
            .unwrap();
        assert_eq!((slow.samples, slow.load_max), (2, Some(2.0)));
    }
}
