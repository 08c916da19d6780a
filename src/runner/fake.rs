//! A fake executor for tests of the scheduler and the session: it starts
//! no process and reads no clock; its programs have fixed behaviours and
//! wall times, and it moves a fake clock by each run's wall time.

use std::fs;

use crate::base::units::{Bytes, Nanos};
use crate::exec::{Executor, Exit, RunRecord, RunRequest};
use crate::runner::Clock;

/// Programs the fake understands (argv[0]):
/// `copy IN` writes IN to stdout; `garble IN` writes something else;
/// `fail` exits 1; `flaky` exits 1 from its fourth run on; `hang` times
/// out; `hog` runs out of memory; `nofork`
/// cannot be started for want of a process (the harness's fault).
/// The wall time is 1000 ns × (position of the program in this list + 1).
///
/// Carry-over, a time that depends on the program run just before:
/// `heavy` is a large program (8 µs, 4 µs of system time) that leaves
/// nothing behind for itself; `afterheavy` takes 2 µs, but 4 µs (and 2 µs
/// more system time) right after `heavy`; `afterany` takes 2 µs after
/// itself and 5 µs after any other program. `steady` takes 2 µs whatever
/// ran before. `kernel` takes 4 ms, 2 ms of it system time, whatever ran
/// before (system time big enough to vary at the microsecond the results
/// keep it to). With `with_noise`, every wall time and every system time is
/// multiplied by log-normal noise of its own.
pub(crate) struct Fake {
    pub log: Vec<String>,
    /// Moves by each run's wall time: the only time the stop rules see.
    pub clock: FakeClock,
    /// Seeded noise and its log-scale standard deviation, when asked for.
    noise: Option<(rand_chacha::ChaCha8Rng, f64)>,
    /// The system time's own generator, apart so the wall times a seed
    /// gives stay what they were before system time had noise.
    sys_noise: Option<rand_chacha::ChaCha8Rng>,
}

/// A clock that only the fake executor moves.
#[derive(Clone, Default)]
pub(crate) struct FakeClock(pub std::rc::Rc<std::cell::Cell<std::time::Duration>>);

impl Clock for FakeClock {
    fn now(&self) -> std::time::Duration {
        self.0.get()
    }
}

impl Fake {
    pub(crate) fn new() -> Fake {
        Fake {
            log: vec![],
            clock: FakeClock::default(),
            noise: None,
            sys_noise: None,
        }
    }

    /// A fake whose wall times vary by a log-normal factor of log-scale
    /// standard deviation `sd`, drawn from a generator seeded with `seed`.
    pub(crate) fn with_noise(seed: u64, sd: f64) -> Fake {
        use rand::SeedableRng;
        Fake {
            noise: Some((rand_chacha::ChaCha8Rng::seed_from_u64(seed), sd)),
            sys_noise: Some(rand_chacha::ChaCha8Rng::seed_from_u64(!seed)),
            ..Fake::new()
        }
    }

    /// The program run before the latest one.
    fn previous(&self) -> Option<&str> {
        let n = self.log.len();
        (n >= 2).then(|| self.log[n - 2].split(' ').next().unwrap_or(""))
    }

    /// Wall and system time of the carry-over programs, by what ran before.
    fn carried(&self, prog: &str) -> Option<(u64, u64)> {
        let before = self.previous();
        match prog {
            "heavy" => Some((8000, 4000)),
            "afterheavy" if before == Some("heavy") => Some((4000, 2100)),
            "afterheavy" => Some((2000, 100)),
            "afterany" if before.is_some_and(|b| b != "afterany") => Some((5000, 3100)),
            "afterany" | "steady" => Some((2000, 100)),
            "tenfold" => Some((20000, 100)),
            "kernel" => Some((4_000_000, 2_000_000)),
            _ => None,
        }
    }

    /// `wall` with this fake's noise, if any.
    fn noisy(&mut self, wall: u64) -> u64 {
        use rand_distr::{Distribution, Normal};
        match &mut self.noise {
            Some((rng, sd)) => {
                let z: f64 = Normal::new(0.0, *sd).expect("a finite spread").sample(rng);
                ((wall as f64) * z.exp()).round().max(1.0) as u64
            }
            None => wall,
        }
    }

    /// `sys` with this fake's noise, if any.
    fn noisy_sys(&mut self, sys: u64) -> u64 {
        use rand_distr::{Distribution, Normal};
        match (&mut self.sys_noise, &self.noise) {
            (Some(rng), Some((_, sd))) => {
                let z: f64 = Normal::new(0.0, *sd).expect("a finite spread").sample(rng);
                ((sys as f64) * z.exp()).round().max(1.0) as u64
            }
            _ => sys,
        }
    }

    pub(crate) fn calls(&self, prog: &str) -> u64 {
        self.log.iter().filter(|l| l.split(' ').next() == Some(prog)).count() as u64
    }
}

impl Executor for Fake {
    fn run(&mut self, req: &RunRequest) -> RunRecord {
        let prog = req.argv[0].as_str();
        self.log.push(req.argv.join(" "));
        let write = |bytes: &[u8]| {
            if let Some(out) = &req.stdout {
                fs::write(out, bytes).unwrap();
            }
        };
        let exit = match prog {
            "copy" => {
                write(&fs::read(&req.argv[1]).unwrap());
                Exit::Code(0)
            }
            "garble" => {
                write(b"not what you gave me");
                Exit::Code(0)
            }
            "fail" => Exit::Code(1),
            // Fine for its first three runs, then failing.
            "flaky" if self.calls("flaky") > 3 => Exit::Code(1),
            "hang" => Exit::Timeout,
            "hog" => Exit::OutOfMemory,
            "nofork" => Exit::HarnessError(
                crate::base::outcome::HarnessFault::CannotStart,
                "fork: Resource temporarily unavailable".into(),
            ),
            _ => Exit::Code(0),
        };
        let rank = ["copy", "garble", "fail", "hang", "hog"]
            .iter()
            .position(|p| *p == prog)
            .unwrap_or(9) as u64;
        let n = self.calls(prog);
        let carried = self.carried(prog);
        let wall = match prog {
            // Alternates 1 µs and 3 µs: its median never settles within a few percent.
            "jitter" => 1000 + 2000 * (n % 2),
            // A JIT: 20 µs falling to 1 µs over its first 10 calls, then level.
            "jit" => 1000 + 19_000u64.saturating_sub(1900 * (n - 1)),
            _ => carried.map_or(1000 * (rank + 1), |c| c.0),
        };
        let wall = self.noisy(wall);
        let sys = self.noisy_sys(carried.map_or(1, |c| c.1));
        self.clock
            .0
            .set(self.clock.0.get() + std::time::Duration::from_nanos(wall));
        RunRecord {
            wall: Nanos(wall),
            user: Nanos(10),
            sys: Nanos(sys),
            max_rss: Bytes(42),
            rss_floor: Bytes(0),
            exit,
        }
    }
}
