//! `versus exec`: commands on the command line, hyperfine's way, made a
//! one-operation suite (`adhoc`) and run as `run` runs a suite.

use super::*;
use crate::app::cli::{ExecArgs, SortOrder, Style, TimeUnit};
use crate::base::units::{self};
use crate::history::Document;
use crate::plan::{self, Sampling};
use crate::report::{self, Outputs};
use crate::results::Results;
use crate::runner::End;
use crate::session::Session;
use anyhow::{Context, Result};
use indexmap::IndexMap;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

pub fn exec(args: ExecArgs) -> Result<ExitCode> {
    let mut suite = adhoc::suite(&args)?;
    let revision_infos = revisions::expand(&mut suite, &args.revisions)?;
    let mut sel = selection(&args.common, vec![])?;
    if let Some(n) = args.min_runs {
        sel.runs = Some(n);
        sel.sampling = Sampling::MinTime {
            min_time: HYPERFINE_MIN_TIME,
            max_runs: args.common.max_runs,
        };
    }
    let plan = plan::build(&suite, &sel)?;
    if let Some(unit) = args.time_unit {
        units::set_time_unit(match unit {
            TimeUnit::Microsecond => units::TimeUnit::Microsecond,
            TimeUnit::Millisecond => units::TimeUnit::Millisecond,
            TimeUnit::Second => units::TimeUnit::Second,
        });
    }
    let scratch = tempfile::Builder::new().prefix("versus-exec-").tempdir()?;
    let quiet = args.common.quiet || matches!(args.style, Style::Basic | Style::Color | Style::None);
    let revisions = revisions::build(&mut suite, &plan, revision_infos, scratch.path(), quiet);
    let session = Session {
        suite: &suite,
        plan: &plan,
        dir: scratch.path(),
        resume: IndexMap::new(),
        warnings: vec![],
        checkpoint: None,
        noise: args
            .common
            .resolve
            .or(suite.settings.resolve)
            .unwrap_or(args.common.noise),
        shard: None,
        revisions,
        cache: crate::payload::cache_dir(),
    };
    let (mut results, end) = run_session(session, quiet)?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    // Ad-hoc runs share one title: their commands say which runs are the same.
    let commands = crate::base::digest::sha256_hex(args.commands.join("\0").as_bytes());
    results.suite.hash = Some(commands.clone());
    let recording = recording::start(
        &args.record,
        &cwd,
        &crate::history::Outside::user_data(),
        &mut results,
        commands,
        "exec",
    );
    report::write(
        &results,
        &Outputs {
            json: args.json.clone(),
            hyperfine: args.export_json.clone(),
            ..Default::default()
        },
        None,
    )?;
    if args.export_json.is_some() {
        let left_out = crate::report::formats::hyperfine::left_out(&results);
        if !left_out.is_empty() {
            tell!(
                "--export-json: left out {} that did not end ok (hyperfine's format has no place for an outcome): {}",
                left_out.len(),
                left_out.join(", ")
            );
        }
    }
    // Recorded in the order measured; sorting is for display. Only made
    // when recording, and compressed as it is serialised: for 100,000 runs
    // the text would be megabytes.
    let document = match &recording {
        Some(r) => Some(Document::from_results(&results, r.packing())?),
        None => None,
    };
    if args.sort == SortOrder::MeanTime {
        sort_by_time(&mut results);
    }
    let outputs = Outputs {
        markdown: args.markdown.iter().cloned().collect(),
        csv: args.csv.clone(),
        asciidoc: args.export_asciidoc.clone(),
        ..Default::default()
    };
    report::write(&results, &outputs, None)?;
    if args.style != Style::None {
        let summary = summary(&results, args.common.verbose, colour(args.common.color, args.style));
        // With `--json -` standard output is the results document.
        if args.json.as_deref() == Some(Path::new("-")) {
            eprint!("{}", crate::base::sink::terminal(&summary));
        } else {
            say(&summary);
        }
    }
    let status = exit::status_of_run(&results, &end);
    let status = revisions::finish(&results, &args.revisions, status, end == End::Interrupted)?;
    if let Some(document) = document {
        recording::finish(recording, &results, &document, status)?;
    }
    Ok(ExitCode::from(status))
}

/// hyperfine's least time of measured runs per command, for `--min-runs`.
const HYPERFINE_MIN_TIME: Duration = Duration::from_secs(3);

/// `--sort mean-time`: the implementations' order becomes fastest first (by
/// the mean over their cells of the median time), for the summary and exports.
fn sort_by_time(results: &mut Results) {
    let mean_median = |name: &str| {
        let medians: Vec<f64> = results
            .cells
            .iter()
            .filter(|c| c.implementation == name)
            .filter_map(|c| c.stats.as_ref().map(|s| s.median_ns))
            .collect();
        if medians.is_empty() {
            f64::INFINITY
        } else {
            medians.iter().sum::<f64>() / medians.len() as f64
        }
    };
    let mut order: Vec<(f64, String)> = results
        .implementations_that_ran()
        .into_iter()
        .map(|n| (mean_median(&n), n))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let imps = &mut results.environment.implementations;
    for (i, (_, name)) in order.iter().enumerate() {
        if let Some(from) = imps.get_index_of(name) {
            imps.move_index(from, i.min(imps.len() - 1));
        }
    }
    // Cells keep their group order; within a group they follow the new order.
    let mut groups: Vec<String> = Vec::new();
    for c in &results.cells {
        let g = crate::results::group_key(&c.operation, &c.params);
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    results.cells.sort_by_key(|c| {
        let g = crate::results::group_key(&c.operation, &c.params);
        let imp = order.iter().position(|(_, n)| *n == c.implementation);
        (groups.iter().position(|x| *x == g), imp)
    });
}
