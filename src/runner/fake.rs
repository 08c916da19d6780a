//! A fake executor for tests of the scheduler and the session: it starts
//! no process and reads no clock; its programs have fixed behaviours and
//! wall times, and it moves a fake clock by each run's wall time.

use std::fs;

use crate::exec::{Executor, Exit, RunRecord, RunRequest};
use crate::runner::Clock;
use crate::units::{Bytes, Nanos};

/// Programs the fake understands (argv[0]):
/// `copy IN` writes IN to stdout; `garble IN` writes something else;
/// `fail` exits 1; `flaky` exits 1 from its fourth run on; `hang` times
/// out; `hog` runs out of memory; `nofork`
/// cannot be started for want of a process (the harness's fault).
/// The wall time is 1000 ns × (position of the program in this list + 1).
pub struct Fake {
    pub log: Vec<String>,
    /// Moves by each run's wall time: the only time the stop rules see.
    pub clock: FakeClock,
}

/// A clock that only the fake executor moves.
#[derive(Clone, Default)]
pub struct FakeClock(pub std::rc::Rc<std::cell::Cell<std::time::Duration>>);

impl Clock for FakeClock {
    fn now(&self) -> std::time::Duration {
        self.0.get()
    }
}

impl Fake {
    pub fn new() -> Fake {
        Fake {
            log: vec![],
            clock: FakeClock::default(),
        }
    }

    pub fn calls(&self, prog: &str) -> u64 {
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
                crate::outcome::HarnessFault::CannotStart,
                "fork: Resource temporarily unavailable".into(),
            ),
            _ => Exit::Code(0),
        };
        let rank = ["copy", "garble", "fail", "hang", "hog"]
            .iter()
            .position(|p| *p == prog)
            .unwrap_or(9) as u64;
        let n = self.calls(prog);
        let wall = match prog {
            // Alternates 1 µs and 3 µs: its median never settles within a few percent.
            "jitter" => 1000 + 2000 * (n % 2),
            // A JIT: 20 µs falling to 1 µs over its first 10 calls, then level.
            "jit" => 1000 + 19_000u64.saturating_sub(1900 * (n - 1)),
            _ => 1000 * (rank + 1),
        };
        self.clock
            .0
            .set(self.clock.0.get() + std::time::Duration::from_nanos(wall));
        RunRecord {
            wall: Nanos(wall),
            user: Nanos(10),
            sys: Nanos(1),
            max_rss: Bytes(42),
            rss_floor: Bytes(0),
            exit,
        }
    }
}
