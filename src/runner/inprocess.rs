//! In-process cells: one worker process per cell, set up once, its batch size
//! calibrated so one sample lasts at least the minimum sample time, then one
//! `run` request per sample, taking turns with the group's other cells.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::base::outcome::Outcome;
use crate::payload::Digest;
use crate::worker::Hello;
use crate::worker::{WorkerError, WorkerProcess};

/// Largest batch calibration will ask for.
const MAX_BATCH: u64 = 1 << 40;
/// Calibration gives up growing the batch after this many requests.
const MAX_CALIBRATION_STEPS: u32 = 40;

/// One `run` answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct BatchSample {
    pub elapsed_ns: u64,
    pub iterations: u64,
    pub alloc_bytes: Option<u64>,
    pub gc_count: Option<u64>,
}

/// The next batch size while calibrating, or `None` once a batch of
/// `batch` calls took at least `target_ns`. Grows by the measured shortfall
/// (with 20% headroom), at least doubling and at most ×100 per step, so
/// a noisy first reading cannot overshoot wildly.
pub(super) fn next_batch(batch: u64, elapsed_ns: u64, target_ns: u64) -> Option<u64> {
    if elapsed_ns >= target_ns || batch >= MAX_BATCH {
        return None;
    }
    let factor = if elapsed_ns == 0 {
        100.0
    } else {
        (target_ns as f64 / elapsed_ns as f64 * 1.2).clamp(2.0, 100.0)
    };
    Some(((batch as f64 * factor).ceil() as u64).min(MAX_BATCH))
}

/// The outcome a worker failure gives its cell.
pub(super) fn outcome_of(e: &WorkerError) -> Outcome {
    match e {
        WorkerError::Timeout(_) => Outcome::Timeout,
        _ => Outcome::Failed,
    }
}

/// How to start a worker process.
pub(super) struct Spawn<'a> {
    pub argv: &'a [String],
    pub cwd: &'a Path,
    pub env: &'a [(String, String)],
    pub log: &'a Path,
    /// Address-space randomisation off (a counted worker).
    pub fixed_layout: bool,
}

pub(super) struct InProcess {
    worker: WorkerProcess,
    pub hello: Hello,
    pub batch: u64,
    timeout: Duration,
    /// Minimum duration of one sample, in ns.
    target: u64,
}

/// A batch's reported time must be possible: above zero, and no longer than
/// the time versus waited for the reply (with 1 ms for clocks that tick
/// coarsely). A worker that says otherwise would make calibration grow the
/// batch until the timeout, or report a median of centuries.
pub(super) fn plausible(elapsed_ns: u64, calls: u64, waited: Duration) -> Result<(), String> {
    if elapsed_ns == 0 {
        return Err(format!(
            "reported 0 ns for {calls} calls: no batch of calls takes no time"
        ));
    }
    let limit = waited.as_nanos().saturating_add(1_000_000);
    if u128::from(elapsed_ns) > limit {
        return Err(format!(
            "reported {elapsed_ns} ns for {calls} calls, longer than the {} ns versus waited for the reply",
            waited.as_nanos()
        ));
    }
    Ok(())
}

fn parse_result(data: &serde_json::Map<String, Value>, asked: u64) -> Result<BatchSample, WorkerError> {
    let garbage = |why: &str| WorkerError::Garbage {
        reason: why.into(),
        line: Value::Object(data.clone()).to_string(),
    };
    let elapsed_ns = data
        .get("elapsed_ns")
        .and_then(Value::as_u64)
        .ok_or_else(|| garbage("result without elapsed_ns"))?;
    let iterations = data
        .get("iterations")
        .and_then(Value::as_u64)
        .ok_or_else(|| garbage("result without iterations"))?;
    if iterations != asked {
        return Err(garbage(&format!(
            "asked for {asked} iterations, the worker reports {iterations}"
        )));
    }
    Ok(BatchSample {
        elapsed_ns,
        iterations,
        alloc_bytes: data.get("alloc_bytes").and_then(Value::as_u64),
        gc_count: data.get("gc_count").and_then(Value::as_u64),
    })
}

impl InProcess {
    /// Starts the worker, sets the operation up and calibrates the batch size.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start(
        argv: &[String],
        cwd: &Path,
        env: &[(String, String)],
        log: &Path,
        operation: &str,
        setup: Value,
        timeout: Duration,
        min_sample: Duration,
    ) -> Result<InProcess, WorkerError> {
        let spawn = Spawn {
            argv,
            cwd,
            env,
            log,
            fixed_layout: false,
        };
        let mut w = InProcess::open(&spawn, operation, setup, timeout)?;
        w.target = u64::try_from(min_sample.as_nanos()).unwrap_or(u64::MAX);
        w.calibrate()?;
        Ok(w)
    }

    /// Starts the worker and sets the operation up, with a batch of one call
    /// and no calibration (a counted worker takes the timed cell's batch).
    pub(super) fn open(
        spawn: &Spawn,
        operation: &str,
        setup: Value,
        timeout: Duration,
    ) -> Result<InProcess, WorkerError> {
        let mut worker = WorkerProcess::spawn_with(spawn.argv, spawn.cwd, spawn.env, spawn.log, spawn.fixed_layout)?;
        let hello = worker.handshake(timeout)?;
        if !hello.operations.iter().any(|o| o == operation) {
            return Err(WorkerError::Remote {
                class: "unknown_operation".into(),
                message: format!(
                    "the worker offers no operation '{operation}' (it offers: {})",
                    hello.operations.join(", ")
                ),
            });
        }
        worker.request("setup", setup, "ready", timeout)?;
        Ok(InProcess {
            worker,
            hello,
            batch: 1,
            timeout,
            target: 0,
        })
    }

    /// The worker's process id.
    pub(super) fn pid(&self) -> u32 {
        self.worker.pid()
    }

    /// Grows the batch until one lasts at least the target. Each size is tried
    /// up to three times and judged by its fastest run, so one slow first call
    /// (class loading, a cold cache, the JIT compiling) cannot stop growth at
    /// a batch of 1. Called again after warm-up, when the code is fast.
    pub(super) fn calibrate(&mut self) -> Result<(), WorkerError> {
        for _ in 0..MAX_CALIBRATION_STEPS {
            let mut fastest = u64::MAX;
            for _ in 0..3 {
                fastest = fastest.min(self.sample()?.elapsed_ns);
                if fastest < self.target {
                    break;
                }
            }
            match next_batch(self.batch, fastest, self.target) {
                Some(next) => self.batch = next,
                None => return Ok(()),
            }
        }
        Ok(())
    }

    /// One sample: a batch of `self.batch` calls.
    pub(super) fn sample(&mut self) -> Result<BatchSample, WorkerError> {
        let asked = std::time::Instant::now();
        let data = self
            .worker
            .request("run", json!({"iterations": self.batch}), "result", self.timeout)?;
        let waited = asked.elapsed();
        let sample = parse_result(&data, self.batch)?;
        plausible(sample.elapsed_ns, self.batch, waited).map_err(|reason| WorkerError::Garbage {
            reason,
            line: Value::Object(data.clone()).to_string(),
        })?;
        Ok(sample)
    }

    /// The digest and length of one call's output.
    pub(super) fn verify(&mut self) -> Result<(Digest, u64), WorkerError> {
        let data = self.worker.request("verify", json!({}), "output", self.timeout)?;
        let garbage = |why: &str| WorkerError::Garbage {
            reason: why.into(),
            line: Value::Object(data.clone()).to_string(),
        };
        let hex = data
            .get("sha256")
            .and_then(Value::as_str)
            .ok_or_else(|| garbage("output without sha256"))?;
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .filter_map(|i| hex.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
            .collect();
        let digest: [u8; 32] = bytes.try_into().map_err(|_| garbage("sha256 is not 64 hex digits"))?;
        let length = data
            .get("length")
            .and_then(Value::as_u64)
            .ok_or_else(|| garbage("output without length"))?;
        Ok((Digest(digest), length))
    }

    /// Tears the operation down and stops the worker. Returns the worker's
    /// peak resident memory over its life (start-up, calibration, every
    /// batch), read just before it stops; None when /proc would not say.
    pub(super) fn finish(mut self) -> Option<u64> {
        let _ = self
            .worker
            .request("teardown", json!({}), "done", self.timeout.min(Duration::from_secs(10)));
        let peak = crate::exec::image_peak(&self.worker.pid().to_string()).map(|b| b.0);
        self.worker.shutdown(Duration::from_secs(5));
        peak
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_grows_until_the_target_and_no_further() {
        // 1 call took 1 µs, target 10 ms: jump by the cap (×100), then by the shortfall.
        assert_eq!(next_batch(1, 1_000, 10_000_000), Some(100));
        assert_eq!(next_batch(100, 100_000, 10_000_000), Some(10_000));
        assert_eq!(next_batch(10_000, 9_000_000, 10_000_000), Some(20_000));
        assert_eq!(next_batch(20_000, 18_000_000, 10_000_000), None);
        // A clock that reads zero still makes progress.
        assert_eq!(next_batch(5, 0, 1_000), Some(500));
        assert_eq!(next_batch(MAX_BATCH, 1, 1_000), None);
    }

    #[test]
    fn results_are_checked() {
        let ok = json!({"elapsed_ns": 10, "iterations": 4, "gc_count": 1});
        let s = parse_result(ok.as_object().unwrap(), 4).unwrap();
        assert_eq!((s.elapsed_ns, s.gc_count, s.alloc_bytes), (10, Some(1), None));
        let wrong = json!({"elapsed_ns": 10, "iterations": 3});
        assert!(parse_result(wrong.as_object().unwrap(), 4).is_err());
        assert!(parse_result(json!({"iterations": 4}).as_object().unwrap(), 4).is_err());
    }

    #[test]
    fn impossible_batch_times_are_refused() {
        let waited = Duration::from_millis(5);
        assert!(plausible(0, 10, waited).unwrap_err().contains("0 ns"));
        assert!(plausible(u64::MAX, 10, waited).is_err());
        assert!(plausible(7_000_000, 10, waited).is_err());
        assert!(plausible(4_000_000, 10, waited).is_ok());
    }
}
