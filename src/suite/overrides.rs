//! Validating a suite's `[[override]]` tables: which cells they reach and
//! what they may change there.

use super::model::{MatrixValues, SuiteFile};
use super::validate::*;
use super::{Operation, Override, SuiteError};

impl Validator<'_> {
    pub(super) fn overrides(
        &self,
        file: &SuiteFile,
        operations: &[Operation],
        expand: &dyn Fn(&str) -> Vec<String>,
    ) -> Result<Vec<Override>, SuiteError> {
        let mut overrides = Vec::new();
        for (i, o) in file.overrides.iter().enumerate() {
            let what = format!("override #{}", i + 1);
            if o.when.is_empty() {
                return Err(self.err(format!(
                    "{what}: `when` is empty; name the parameter values it applies to"
                )));
            }
            for (k, v) in &o.when {
                let Some(values) = matrix_points(file).shift_remove(k) else {
                    return Err(self.err(format!("{what}: when.{k}: no matrix parameter named '{k}'")));
                };
                if !values.contains(v) {
                    let kind = match file.matrix.get(k) {
                        Some(MatrixValues::Labelled(_)) => "labels",
                        _ => "values",
                    };
                    return Err(self.err(format!("{what}: when.{k} = {v} is not one of matrix.{k}'s {kind}")));
                }
            }
            let ops = self.override_operations(&what, o.operations.as_deref(), operations)?;
            if let Some(v) = o.vars.keys().find(|v| !file.vars.contains_key(*v)) {
                return Err(self.err(format!("{what}: vars.{v}: declare it with a default in [vars] first")));
            }
            if o.runs == Some(0) {
                return Err(self.err(format!("{what}: runs must be at least 1")));
            }
            if let Some(s) = o.skip.iter().find(|s| expand(s).is_empty()) {
                return Err(self.err(format!("{what}: skip: no implementation named '{s}'")));
            }
            if let Some(w) = o.weight.filter(|w| !(w.is_finite() && *w > 0.0)) {
                return Err(self.err(format!("{what}: weight = {w}: give a positive number")));
            }
            overrides.push(Override {
                when: o.when.clone(),
                operations: ops,
                vars: o.vars.clone(),
                runs: o.runs,
                warmup: self.warmup(&format!("{what}.warmup"), &o.warmup)?,
                timeout: self.duration(&format!("{what}.timeout"), &o.timeout)?,
                skip: o.skip.iter().flat_map(|s| expand(s)).collect(),
                reason: o.reason.clone(),
                weight: o.weight,
            });
        }
        Ok(overrides)
    }

    /// An override's `operations`, as indices into `operations`: absent means
    /// every operation; a list must name at least one, each an operation of the suite.
    fn override_operations(
        &self,
        what: &str,
        names: Option<&[String]>,
        operations: &[Operation],
    ) -> Result<Vec<usize>, SuiteError> {
        let Some(names) = names else { return Ok(Vec::new()) };
        if names.is_empty() {
            return Err(self.err(format!(
                "{what}: operations = []: name the operations it applies to, or leave `operations` out for all of them"
            )));
        }
        let mut indices = Vec::new();
        for name in names {
            let Some(i) = operations.iter().position(|op| &op.name == name) else {
                let known: Vec<&str> = operations.iter().map(|op| op.name.as_str()).collect();
                return Err(self.err(format!(
                    "{what}: operations: no operation named '{name}' (expected one of: {})",
                    known.join(", ")
                )));
            };
            if !indices.contains(&i) {
                indices.push(i);
            }
        }
        Ok(indices)
    }
}
