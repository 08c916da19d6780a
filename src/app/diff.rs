//! `versus diff OLD NEW`: two results files compared cell by cell
//! (`history::runs::diff`), printed, and gated by `--fail-above`.

use super::*;
use crate::analysis;
use crate::app::cli::Style;
use crate::report::formats::{markdown, terminal};
use anyhow::{Context, Result, bail};
use std::fs;
use std::process::ExitCode;

pub fn diff(args: crate::app::cli::DiffArgs) -> Result<ExitCode> {
    let mut old = recording::load(&args.old, &args.store)?;
    let mut new = recording::load(&args.new, &args.store)?;
    let machines = crate::history::runs::machine_differences(&old, &new);
    if !machines.is_empty() && !args.allow_different_machines {
        bail!(
            "{} and {} were measured on different machines ({}); timings do not compare. Pass --allow-different-machines to compare anyway",
            args.old,
            args.new,
            machines.join("; ")
        );
    }
    // Recompute with this versus, so both sides are analysed the same way.
    analysis::analyze(&mut old, &[]);
    analysis::analyze(&mut new, &[]);
    let noise = recording::diff_noise(&args.store, &old, &new);
    let d = crate::history::runs::diff(&old, &new, args.metric, &noise);
    if d.rows.is_empty() {
        bail!(
            "{} and {} have no cell in common (cells are matched by id: operation/implementation/parameters)",
            args.old,
            args.new
        );
    }
    let table = crate::history::runs::table(&d, new.analysis.for_metric(args.metric).noise);
    say(&terminal::render_table_with(
        &table,
        terminal::Layout::stdout(colour(args.color, Style::Auto)),
    ));
    let mut notes = Vec::new();
    if !machines.is_empty() {
        notes.push(format!("WARNING: different machines: {}", machines.join("; ")));
    }
    if !d.version_changes.is_empty() {
        notes.push(format!(
            "WARNING: versions changed between the runs: {}",
            d.version_changes.join("; ")
        ));
    }
    if !d.only_old.is_empty() {
        notes.push(format!("only in {}: {}", args.old, d.only_old.join(", ")));
    }
    if !d.only_new.is_empty() {
        notes.push(format!("only in {}: {}", args.new, d.only_new.join(", ")));
    }
    for n in &notes {
        tell!("{n}");
    }
    if let Some(p) = &args.markdown {
        fs::write(p, markdown::render_diff(&table, &notes)).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(t) = args.fail_above {
        let bad = crate::history::runs::regressions(&d, t);
        if !bad.is_empty() {
            tell!(
                "{} cell(s) slower by more than {:.1}%: {}",
                bad.len(),
                t * 100.0,
                bad.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
            );
            return Ok(ExitCode::from(exit::REGRESSION));
        }
    }
    Ok(ExitCode::from(exit::OK))
}
