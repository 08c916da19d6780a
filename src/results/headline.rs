//! The headline: the few comparisons a reader opens the report for, each
//! with its figures, computed by `analysis::headline` and shown before
//! anything else. A suite may state them (`[[report.headline]]`, kept in
//! `ReportInfo` so a re-render asks the same questions); otherwise versus
//! picks them. docs/results-format.md, "Headline", documents every field.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::base::params::{ParamValue, Params};
use crate::results::Verdict;

/// What the suite asked of its report, as recorded with the run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ReportInfo {
    /// The comparisons the suite exists for, in the suite's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headline: Vec<HeadlineAsk>,
    /// Where the author's notes go: right after the headline (`lead`, the
    /// default) or in the appendix.
    #[serde(default, skip_serializing_if = "NotesAt::is_lead")]
    pub notes_at: NotesAt,
    /// The suite's notes file, as the suite names it (relative to the suite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl ReportInfo {
    pub fn is_empty(&self) -> bool {
        *self == ReportInfo::default()
    }
}

/// Where the notes go in a report.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotesAt {
    #[default]
    Lead,
    Appendix,
}

impl NotesAt {
    fn is_lead(&self) -> bool {
        *self == NotesAt::Lead
    }
}

/// One comparison a suite states: these implementations against `against`
/// for `operation` where the parameters take the values in `at`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct HeadlineAsk {
    pub operation: String,
    /// Parameter values that pick the groups; a parameter left out takes each of its values.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub at: IndexMap<String, ParamValue>,
    /// Empty: every other implementation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub implementations: Vec<String>,
    /// Default: the suite's baseline, else the fastest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// The question in the author's words, shown before the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

/// One headline line: one group (an operation at one parameter set), each
/// implementation asked about against one reference.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Headline {
    pub operation: String,
    pub params: Params,
    /// The implementation the others are measured against.
    pub against: String,
    /// The reference's median, in the document's metric.
    pub against_median: f64,
    /// Whether the suite asked for it (`[[report.headline]]`) or versus picked it.
    pub declared: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// Why versus picked it: "largest size", "smallest size", "winner changes", "the group".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Each implementation asked about, fastest first.
    pub rows: Vec<HeadlineRow>,
    /// Implementations asked about that have no figure here, with their outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<(String, String)>,
    /// The sentence reports print.
    pub text: String,
}

/// One implementation against the reference in a headline.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HeadlineRow {
    pub implementation: String,
    pub median: f64,
    /// Its time over the reference's (above 1: slower), as the judge gives it.
    pub ratio: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_low: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_high: Option<f64>,
    pub verdict: Verdict,
    /// Below the runs an interval needs, every run of one side below every
    /// run of the other: both ranges, a description, not a verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apart: Option<[f64; 4]>,
    /// Where the comparison has no verdict, why (from the judge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// "encrypt at size=100MiB, armor=false", or the operation alone.
pub fn place(operation: &str, params: &Params) -> String {
    if params.is_empty() {
        return operation.to_string();
    }
    let values: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{operation} at {}", values.join(", "))
}
