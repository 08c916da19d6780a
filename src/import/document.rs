//! The versus results document made from imported files: one cell per
//! benchmark, named so that files meet in one comparison. A file given as
//! `FILE=NAME` is the implementation NAME; the harness's own variants in it
//! (hyperfine's commands, criterion's functions) become `NAME/variant` when
//! there are several. Without a name, the variants are the implementations,
//! else the file's name. The environment is this machine's (a file rarely
//! says enough of its own), and the warnings say where each cell came from
//! and which cells hold only a harness's summary.
//!
//! Cells of one file were not measured side by side (harnesses run one
//! benchmark after another), so each cell gets its own `started_at`
//! (`imported:FILE#N`): the analysis pairs runs only within one start.

use anyhow::{Result, bail};
use indexmap::IndexMap;

use super::{Bench, Figures, Imported, Source, Summary};
use crate::base::outcome::Outcome;
use crate::base::params::ParamValue;
use crate::base::params::Params;
use crate::plan::{self};
use crate::results::{
    self, AnalysisSettings, Cell, ImplementationInfo, Results, RunStatus, SteadyState, StopRule, SuiteInfo, Warning,
};

/// What the command line adds to the files.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// The document's suite name [default: the implementations, "go vs rust"].
    pub name: Option<String>,
    /// Operations and parameters renamed (`--rename OLD=NEW`), so differently named benchmarks meet.
    pub renames: Vec<(String, String)>,
    /// Ratios against this implementation [default: the fastest].
    pub baseline: Option<String>,
    /// The command line, recorded in the document.
    pub command: String,
}

/// Builds and analyses the document from the files, in the order given.
pub(crate) fn build(files: &[(Source, Imported)], options: &Options) -> Result<Results> {
    let mut doc = Builder::default();
    for (source, imported) in files {
        doc.add(source, imported, options)?;
    }
    let names: Vec<&str> = doc.implementations.keys().map(String::as_str).collect();
    if let Some(b) = options.baseline.as_deref().filter(|b| !names.contains(b)) {
        bail!(
            "--baseline {b}: no implementation has this name (they are: {})",
            names.join(", ")
        );
    }
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| format!("import: {}", names.join(" vs ")));
    let now = results::now_rfc3339();
    let mut environment = crate::environment::collect("none");
    // The load while importing says nothing of the load while measuring.
    environment.load_average = None;
    environment.implementations = doc.implementations;
    let mut results = Results {
        schema_version: results::SCHEMA_VERSION,
        suite: SuiteInfo {
            name,
            description: Some(format!("imported by versus import from {}", doc.sources.join(", "))),
            file: None,
            baseline: options.baseline.clone(),
            command: options.command.clone(),
            hash: None,
            git: None,
            implementations: vec![],
            labels: Default::default(),
            report: Default::default(),
        },
        started_at: now.clone(),
        finished_at: Some(now),
        status: RunStatus::Complete,
        environment,
        analysis: AnalysisSettings::default(),
        design: None,
        matrix: doc.matrix,
        operations: doc.operations,
        cells: doc.cells,
        ..Default::default()
    };
    crate::analysis::analyze(&mut results, &doc.warnings);
    results::validate(&results).map_err(|e| anyhow::anyhow!("the imported figures: {e}"))?;
    Ok(results)
}

#[derive(Default)]
struct Builder {
    implementations: IndexMap<String, ImplementationInfo>,
    matrix: IndexMap<String, Vec<ParamValue>>,
    operations: Vec<String>,
    cells: Vec<Cell>,
    /// Which file each cell id came from, to name both in a clash.
    origin: IndexMap<String, String>,
    sources: Vec<String>,
    warnings: Vec<Warning>,
}

impl Builder {
    fn add(&mut self, source: &Source, imported: &Imported, options: &Options) -> Result<()> {
        let file = source.path.display().to_string();
        let variants: std::collections::HashSet<&str> =
            imported.benches.iter().filter_map(|b| b.variant.as_deref()).collect();
        let several = variants.len() > 1;
        let mut summaries = Vec::new();
        for (i, bench) in imported.benches.iter().enumerate() {
            let implementation = implementation(source, bench, several);
            let operation = rename(&bench.operation, &options.renames);
            let params = params(&bench.params, &options.renames);
            let id = plan::cell_id(&operation, &implementation, &params);
            if let Some(first) = self.origin.insert(id.clone(), file.clone()) {
                bail!(
                    "{file}: benchmark {} is also in {first} (both are {implementation} {operation}); give each file its own name (FILE=NAME) or --rename an operation",
                    i + 1
                );
            }
            if matches!(bench.figures, Figures::Summary(_)) {
                summaries.push(id.clone());
            }
            self.note(&implementation, &operation, &params, imported, &file);
            self.cells.push(cell(
                id,
                implementation,
                operation,
                params,
                bench,
                &format!("imported:{file}#{i}"),
            ));
        }
        self.sources.push(format!("{file} ({})", imported.harness));
        if !summaries.is_empty() {
            self.warnings.push(Warning {
                kind: "imported_summary".into(),
                message: format!(
                    "{file} ({}) keeps only its own summary for {} cell(s), no per-run samples: their median, mean and spread are {}'s, and they have no intervals or verdicts: {}",
                    imported.harness,
                    summaries.len(),
                    imported.harness,
                    summaries.join(", ")
                ),
            });
        }
        if let Some(cpu) = &imported.cpu_model {
            let here = crate::environment::collect("none").cpu_model;
            if *cpu != here {
                self.warnings.push(Warning {
                    kind: "imported_machine".into(),
                    message: format!(
                        "{file} says it was measured on a {cpu}; the environment shown is this machine's ({here})"
                    ),
                });
            }
        }
        Ok(())
    }

    /// Records the implementation, operation and parameter values the cell adds.
    fn note(&mut self, implementation: &str, operation: &str, params: &Params, imported: &Imported, file: &str) {
        self.implementations
            .entry(implementation.to_string())
            .or_insert_with(|| ImplementationInfo {
                version: None,
                note: Some(format!("imported from {file} ({})", imported.harness)),
                artifact: None,
            });
        if !self.operations.iter().any(|o| o == operation) {
            self.operations.push(operation.to_string());
        }
        for (k, v) in params {
            let values = self.matrix.entry(k.clone()).or_default();
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
}

/// The implementation a benchmark belongs to (see the module's header).
fn implementation(source: &Source, bench: &Bench, several_variants: bool) -> String {
    match (&source.label, &bench.variant) {
        (Some(label), Some(v)) if several_variants => format!("{label}/{v}"),
        (Some(label), _) => label.clone(),
        (None, Some(v)) => v.clone(),
        (None, None) => source.stem(),
    }
}

fn rename(operation: &str, renames: &[(String, String)]) -> String {
    renames
        .iter()
        .find(|(from, _)| from == operation)
        .map_or_else(|| operation.to_string(), |(_, to)| to.clone())
}

/// Parameters, renamed; values that are whole numbers as numbers, anything else as text.
fn params(pairs: &[(String, String)], renames: &[(String, String)]) -> Params {
    pairs
        .iter()
        .map(|(k, v)| {
            let value = v
                .parse::<i64>()
                .map_or_else(|_| ParamValue::Str(v.clone()), ParamValue::Int);
            (rename(k, renames), value)
        })
        .collect()
}

fn cell(id: String, implementation: String, operation: String, params: Params, bench: &Bench, started: &str) -> Cell {
    let (mut samples, stats) = match &bench.figures {
        Figures::Samples(s) => (s.as_ref().clone(), None),
        Figures::Summary(summary) => (Default::default(), Some(summary_stats(summary))),
    };
    // A column only some lines filled (Go's B/op on some runs) is dropped whole.
    if samples.alloc_bytes.len() != samples.wall_ns.len() {
        samples.alloc_bytes.clear();
    }
    let runs = match &bench.figures {
        Figures::Summary(s) => s.n,
        Figures::Samples(s) => s.len(),
    };
    let failed = bench.failed.is_some() || runs == 0;
    Cell {
        id,
        implementation,
        operation,
        params,
        outcome: if failed { Outcome::Failed } else { Outcome::Ok },
        message: failed.then(|| {
            bench
                .failed
                .clone()
                .unwrap_or_else(|| "the file holds no measured run".into())
        }),
        payload_bytes: bench.payload_bytes,
        warmup_runs: 0,
        runs_requested: runs as u32,
        warmup_wall_ns: vec![],
        samples,
        started_at: Some(started.to_string()),
        stop_rule: if failed { StopRule::Failed } else { StopRule::Fixed },
        worker: None,
        machine: None,
        services: vec![],
        segments: vec![],
        work_params: None,
        harness_fault: None,
        stats: if failed { None } else { stats },
    }
}

/// A cell's statistics from a harness's summary: no interval, no outliers.
fn summary_stats(s: &Summary) -> results::Stats {
    results::Stats {
        n: s.n,
        mean_ns: s.mean_ns,
        median_ns: s.median_ns,
        stddev_ns: s.stddev_ns,
        min_ns: s.min_ns,
        max_ns: s.max_ns,
        throughput_bytes_per_s: None,
        median_user_ns: None,
        median_sys_ns: None,
        max_rss_bytes: None,
        max_rss_at_most: false,
        ci_low_ns: None,
        ci_high_ns: None,
        levels: None,
        mean_ci_low_ns: None,
        mean_ci_high_ns: None,
        outliers: vec![],
        steady_from: None,
        steady_state: SteadyState::Unknown,
        alloc_bytes_per_call: None,
        gc_per_call: None,
        carry_over: None,
        instructions: None,
        repeatability: None,
        unstable: None,
    }
}
