//! The part of a results document that says which git revisions a run
//! measured (`versus run --rev`): the revisions as asked, each column built
//! at one of them with how its build went, and each column at a later
//! revision against the same implementation at the first, paired (the
//! verdict a pull request's author wants). Only types: `revisions::compare`
//! fills the comparisons, the reports print them.

use serde::{Deserialize, Serialize};

use super::Comparison;

/// Set when implementations were measured at several git revisions.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Revisions {
    /// In the order given; every later revision is compared with the first.
    pub revisions: Vec<RevisionInfo>,
    /// Every column built at a revision, in the suite's implementation order.
    pub columns: Vec<RevisionColumn>,
    /// Each column at a later revision against the same implementation at
    /// the first revision, in the same group (paired, `judge::compare`).
    #[serde(default)]
    pub comparisons: Vec<Comparison>,
}

/// A revision as asked for: `--rev LABEL=REV` or `--rev REV`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RevisionInfo {
    /// What follows `@` in its columns' names.
    pub label: String,
    /// The revision as given (a branch, a tag, a commit, `HEAD~3`).
    pub rev: String,
}

/// One implementation at one revision: a column of the report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RevisionColumn {
    /// The column's name, `<of>@<revision>`.
    pub implementation: String,
    /// The implementation's own name.
    pub of: String,
    /// The revision's label.
    pub revision: String,
    /// The full commit hash the revision resolved to in the implementation's repository.
    pub commit: String,
    /// The commit's subject line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    pub build: BuildRecord,
}

/// How a column's checkout was built.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BuildRecord {
    pub status: BuildStatus,
    /// The build's output (absent when nothing was built).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// How long the build took, when it ran in this run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// Why it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BuildStatus {
    /// Built in this run.
    Built,
    /// Built by an earlier run: the cached checkout was used.
    Cached,
    /// The build failed: the column's cells are `failed`.
    Failed,
    /// The implementation has no build command: the checkout is used as it is.
    CheckoutOnly,
}
