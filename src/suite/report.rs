//! `[report]`: the comparisons a suite states for its headline and where
//! its notes go, checked against the suite's operations, implementations
//! and matrix so a typo is an error here, not an empty headline later.

use std::path::Path;

use super::model::{HeadlineSpec, SuiteFile};
use super::validate::{Validator, matrix_points};
use super::{Implementation, SuiteError};
use crate::results::{HeadlineAsk, ReportInfo};

impl Validator<'_> {
    /// The suite's `[report]` as the results document records it.
    pub(super) fn report(
        &self,
        file: &SuiteFile,
        implementations: &[Implementation],
    ) -> Result<ReportInfo, SuiteError> {
        let mut headline = Vec::new();
        for (i, h) in file.report.headline.iter().enumerate() {
            headline.push(self.headline(file, implementations, i, h)?);
        }
        let notes = file.report.notes.clone().or_else(|| beside(self.path));
        Ok(ReportInfo {
            headline,
            notes_at: file.report.notes_at.unwrap_or_default(),
            notes,
        })
    }

    fn headline(
        &self,
        file: &SuiteFile,
        implementations: &[Implementation],
        i: usize,
        h: &HeadlineSpec,
    ) -> Result<HeadlineAsk, SuiteError> {
        let at = |field: &str| format!("report.headline[{i}].{field}");
        if !file.operations.contains_key(&h.operation) {
            return Err(self.err(format!(
                "{} = \"{}\": no such operation (expected one of: {})",
                at("operation"),
                h.operation,
                file.operations.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        let points = matrix_points(file);
        for (name, value) in &h.at {
            let Some(values) = points.get(name) else {
                return Err(self.err(format!("{}: no matrix parameter `{name}`", at("at"))));
            };
            if !values.contains(value) {
                let known: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                return Err(self.err(format!(
                    "{}.{name} = {value}: not one of its values ({})",
                    at("at"),
                    known.join(", ")
                )));
            }
        }
        let expand = |name: &str| -> Result<Vec<String>, SuiteError> {
            let names = super::validate::expand_name(file, implementations, name);
            if names.is_empty() {
                let known: Vec<&str> = implementations.iter().map(|i| i.name.as_str()).collect();
                return Err(self.err(format!(
                    "{}: no implementation \"{name}\" (expected one of: {})",
                    at("implementations"),
                    known.join(", ")
                )));
            }
            Ok(names)
        };
        let mut names = Vec::new();
        for n in &h.implementations {
            names.extend(expand(n)?);
        }
        let against = match &h.against {
            Some(a) => {
                let found = expand(a).map_err(|e| SuiteError {
                    message: e.message.replace(&at("implementations"), &at("against")),
                    ..e
                })?;
                if found.len() != 1 {
                    return Err(self.err(format!(
                        "{} = \"{a}\": names {} variants; name one of them ({})",
                        at("against"),
                        found.len(),
                        found.join(", ")
                    )));
                }
                found.into_iter().next()
            }
            None => None,
        };
        Ok(HeadlineAsk {
            operation: h.operation.clone(),
            at: h.at.clone(),
            implementations: names,
            against,
            question: h.question.clone(),
        })
    }
}

/// `SUITE.notes.md` beside the suite file, when there is one.
fn beside(suite: &Path) -> Option<String> {
    let name = format!("{}.notes.md", suite.file_stem()?.to_string_lossy());
    suite.with_file_name(&name).is_file().then_some(name)
}
