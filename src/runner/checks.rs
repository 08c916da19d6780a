//! Checks on what a run did: how a run that did not exit as expected is
//! described, and the output checks an operation asks for (round trip,
//! equal to a file or a SHA-256, the same across runs and implementations),
//! on every run and on in-process workers' outputs alike.

use std::path::Path;

use super::Runner;
use super::agree;
use super::inprocess;
use super::inputs::PayloadFile;
use super::scope::params_scope;
use super::state::{CellState, Mode};
use crate::base::folder;
use crate::base::outcome::Outcome;
use crate::payload::{self, Digest};
use crate::plan::Group;
use crate::suite::Operation;

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
            let rel = params_scope(&group.values, &self.tmp)
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
    /// bytes. When implementations differ, the suite's `reference`, else a
    /// strict majority of three or more, is right and the others are
    /// `wrong_output`, each told how its output differs; with no way to tell
    /// (two that differ, no majority) every one of them is, and the message
    /// says so. The differing outputs are kept in the results folder.
    pub(super) fn compare_outputs(&self, states: &mut [CellState], group: &Group) {
        let op = &self.suite.operations[group.operation];
        if !op.same_output {
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
        let ok: Vec<usize> = (0..states.len())
            .filter(|&i| states[i].outcome.is_none() && !states[i].digests.is_empty())
            .collect();
        let digests: Vec<Digest> = ok.iter().map(|&i| states[i].digests[0]).collect();
        let named = ok.iter().position(|&i| Some(name(&states[i])) == op.reference);
        let decided = agree::reference(&digests, named);
        if decided == agree::Reference::Agreed {
            return;
        }
        let kept = self.keep_outputs(states, &ok, group);
        let names: Vec<String> = ok.iter().map(|&i| name(&states[i])).collect();
        let kept_note = kept.map_or_else(String::new, |d| format!("; the outputs are kept in {}", d.display()));
        let (right, whose) = match &decided {
            agree::Reference::Named(r) => (digests[*r], format!("{}'s, the suite's reference", names[*r])),
            agree::Reference::Majority(most) => (
                digests[most[0]],
                format!(
                    "the one {} agree on ({} of {})",
                    most.iter()
                        .map(|&j| names[j].as_str())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    most.len(),
                    ok.len()
                ),
            ),
            _ => {
                self.undecided(states, &ok, &names, op, &kept_note);
                return;
            }
        };
        let sample = ok[digests
            .iter()
            .position(|d| *d == right)
            .expect("the reference is one of them")];
        let right_file = states[sample].out.clone();
        for (k, &i) in ok.iter().enumerate() {
            if digests[k] == right {
                continue;
            }
            let how = describe_pair(states[i].out.as_deref(), right_file.as_deref());
            states[i].fail(
                Outcome::WrongOutput,
                format!("the output differs from {whose}{how}{kept_note}"),
            );
        }
    }

    /// Outputs differ and nothing says which is right: every cell of them is
    /// `wrong_output`, told whose output it differs from and how.
    fn undecided(&self, states: &mut [CellState], ok: &[usize], names: &[String], op: &Operation, kept: &str) {
        let files: Vec<Option<std::path::PathBuf>> = ok.iter().map(|&i| states[i].out.clone()).collect();
        let why = if ok.len() == 2 {
            "with two implementations versus cannot tell which is right".to_string()
        } else {
            "no output is shared by more than half of them, so versus cannot tell which is right".to_string()
        };
        // Every message is written before any cell fails: failing removes its output.
        let messages: Vec<String> = (0..ok.len())
            .map(|k| {
                let other = (k + 1) % ok.len();
                let how = describe_pair(files[k].as_deref(), files[other].as_deref());
                format!(
                    "the outputs differ ({}) and {why}; name the right one with reference = \"…\" under [operations.{}]. \
This output against {}'s{how}{kept}",
                    names.join(", "),
                    op.name,
                    names[other]
                )
            })
            .collect();
        for (&i, message) in ok.iter().zip(messages) {
            states[i].fail(Outcome::WrongOutput, message);
        }
    }

    /// Copies every compared output into `<kept>/<op>/<params>/<impl>.out`
    /// (`<kept>/<op>/<impl>.out` without parameters),
    /// before failing cells removes theirs; the folder, when there is one.
    fn keep_outputs(&self, states: &[CellState], ok: &[usize], group: &Group) -> Option<std::path::PathBuf> {
        let root = self.kept.as_ref()?;
        let mut dir = root.join(folder::for_name(&self.suite.operations[group.operation].name));
        if !group.params.is_empty() {
            dir.push(folder::for_name(&crate::base::params::params_key(&group.params)));
        }
        std::fs::create_dir_all(&dir).ok()?;
        let mut any = false;
        for &i in ok {
            let Some(out) = states[i].out.as_ref().filter(|o| o.is_file()) else {
                continue;
            };
            let name = &self.suite.implementations[states[i].imp].name;
            any |= std::fs::copy(out, dir.join(format!("{}.out", folder::for_name(name)))).is_ok();
        }
        any.then_some(dir)
    }
}

/// "; 98892 bytes against 41781; from byte 1 on: …" for two output files,
/// empty when either is missing (in-process outputs are only digests).
fn describe_pair(a: Option<&Path>, b: Option<&Path>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => agree::difference(a, b).map_or_else(String::new, |d| format!(": {d}")),
        _ => String::new(),
    }
}
