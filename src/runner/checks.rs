//! Checks on what a run did: how a run that did not exit as expected is
//! described, and the output checks an operation asks for (round trip,
//! equal to a file or a SHA-256, the same across runs and implementations),
//! on every run and on in-process workers' outputs alike.

use std::path::Path;

use super::Runner;
use super::cell::{CellState, Mode};
use super::inprocess;
use super::inputs::PayloadFile;
use super::scope::params_scope;
use crate::exec::Exit;
use crate::outcome::{HarnessFault, Outcome};
use crate::payload::{self, Digest};
use crate::plan::Group;

/// Free space under which a disk is reported as full.
const FULL_DISK: u64 = 64 * 1024;

/// Why something a cell needed went wrong, and whether that was versus's
/// own fault (see `HarnessFault`) rather than the code under test's.
#[derive(Debug)]
pub(super) struct Failure {
    pub message: String,
    pub fault: Option<HarnessFault>,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { message, fault: None }
    }
}

/// Whether the disk holding `dir` has (almost) no space left.
pub(super) fn disk_full(dir: &Path) -> bool {
    payload::free_space(dir).is_some_and(|free| free < FULL_DISK)
}

/// Whose fault a run that did not end as expected was: versus's own when it
/// could not start the run, or when the run failed and the disk under its
/// capture files (`capture_dir`, in versus's output folder) is full — a full
/// disk also swallows the stderr that would have said so. Else the program's.
pub(super) fn harness_fault(exit: &Exit, capture_dir: Option<&Path>) -> Option<HarnessFault> {
    match exit {
        Exit::HarnessError(fault, _) => Some(*fault),
        // A timeout or an out-of-memory kill is the program's, full disk or
        // not; a program that could not start was classified by its spawn.
        Exit::Timeout | Exit::OutOfMemory | Exit::SpawnError(_) => None,
        Exit::Code(_) | Exit::Signal(_) => capture_dir.filter(|d| disk_full(d)).map(|_| HarnessFault::OutputFull),
    }
}

/// Describes a run that did not end as expected.
pub(super) fn describe(exit: &Exit, expected: i32) -> (Outcome, String) {
    match exit {
        Exit::Code(c) => (Outcome::Failed, format!("exited with status {c} (expected {expected})")),
        Exit::Signal(s) => {
            let hint = if *s == libc::SIGKILL {
                " (possibly the kernel's out-of-memory killer)"
            } else {
                ""
            };
            (Outcome::Failed, format!("killed by signal {s}{hint}"))
        }
        Exit::Timeout => (Outcome::Timeout, "exceeded the per-run timeout and was killed".into()),
        Exit::OutOfMemory => (Outcome::OutOfMemory, "killed for exceeding its memory limit".into()),
        Exit::SpawnError(m) => (Outcome::Failed, format!("could not start: {m}")),
        Exit::HarnessError(fault, m) => (Outcome::Failed, format!("could not start: {m} ({})", fault.describe())),
    }
}

impl Runner<'_> {
    /// Asks a worker for its output and checks it like a process's output.
    pub(super) fn verify_worker(&mut self, st: &mut CellState, payload: Option<&PayloadFile>, group: &Group) {
        let Mode::Worker(w) = &mut st.mode else { return };
        match w.verify() {
            Ok((digest, _)) => {
                if let Err(msg) = self.check_digest(digest, payload, group) {
                    st.fail(Outcome::WrongOutput, msg);
                } else {
                    st.digests.push(digest);
                }
            }
            Err(e) => st.fail(inprocess::outcome_of(&e), format!("verify: {e}")),
        }
    }

    pub(super) fn digest(&mut self, path: &Path) -> std::io::Result<Digest> {
        if let Some(d) = self.digests.get(path) {
            return Ok(*d);
        }
        let d = payload::digest_file(path)?;
        self.digests.insert(path.to_path_buf(), d);
        Ok(d)
    }

    /// The output checks an operation asks for, on the SHA-256 of one output.
    pub(super) fn check_digest(
        &mut self,
        got: Digest,
        payload: Option<&PayloadFile>,
        group: &Group,
    ) -> Result<(), String> {
        let op = &self.suite.operations[group.operation];
        if op.roundtrip {
            let p = payload.expect("validated: roundtrip needs a payload");
            let want = self
                .digest(&p.path)
                .map_err(|e| format!("cannot read the payload: {e}"))?;
            if got != want {
                return Err("round trip failed: the output differs from the payload".into());
            }
        }
        if let Some(t) = &op.expect_file {
            let rel = params_scope(&group.params, &self.tmp)
                .text(t)
                .map_err(|e| e.to_string())?;
            let path = self.suite.dir.join(rel);
            let want = self
                .digest(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if got != want {
                return Err(format!("the output differs from {}", path.display()));
            }
        }
        if let Some(hex) = &op.expect_sha256
            && &got.hex() != hex
        {
            return Err(format!("the output's SHA-256 is {}, expected {hex}", got.hex()));
        }
        Ok(())
    }

    /// `same_output`: every run of every implementation must produce the same
    /// bytes. The reference is the baseline's output when it ran fine, else
    /// the first implementation's that did.
    pub(super) fn compare_outputs(&self, states: &mut [CellState], group: &Group) {
        if !self.suite.operations[group.operation].same_output {
            return;
        }
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            if st.digests.windows(2).any(|w| w[0] != w[1]) {
                st.fail(
                    Outcome::WrongOutput,
                    "the output differs from one run to the next".into(),
                );
            }
        }
        let name = |st: &CellState| self.suite.implementations[st.imp].name.clone();
        let reference = states
            .iter()
            .filter(|s| s.outcome.is_none() && !s.digests.is_empty())
            .min_by_key(|s| {
                if Some(name(s)) == self.suite.baseline {
                    0
                } else {
                    1 + s.imp
                }
            })
            .map(|s| (name(s), s.digests[0]));
        let Some((ref_name, ref_digest)) = reference else {
            return;
        };
        for st in states.iter_mut().filter(|s| s.outcome.is_none()) {
            if st.digests.first().is_some_and(|d| *d != ref_digest) {
                st.fail(Outcome::WrongOutput, format!("the output differs from {ref_name}'s"));
            }
        }
    }
}
