//! The change since an earlier run, as a run's report shows it: which run
//! it is compared with (`--compare-to`'s run or baseline, else the last run
//! of the suite on this machine), what the store's recent runs say of each
//! cell's noise (`judge::prior`), and the diff between the two.

use anyhow::{Context, Result, bail};

use crate::history::judge::noise;
use crate::history::judge::prior::Prior;
use crate::history::{Store, machine_of};
use crate::results::{self, Results};

/// This machine's identity, as runs record it.
pub(crate) fn this_machine() -> String {
    machine_of(&crate::environment::collect(""))
}

/// The change since an earlier run: `--compare-to`'s run or baseline,
/// else the last run of the suite on this machine; `None` when there is none.
pub(crate) fn since(store: &mut Store, results: &Results, compare_to: Option<&str>) -> Result<Option<results::Since>> {
    let here = machine_of(&results.environment);
    let (id, label) = match compare_to {
        None => match store.last_run(&results.suite.name, &here, content_key(results))? {
            Some(id) => (id, "the last run".to_string()),
            None => return Ok(None),
        },
        Some(reference) => (
            resolve(store, reference, Some(&results.suite.name))
                .with_context(|| format!("--compare-to {reference}"))?,
            match reference.parse::<i64>() {
                Ok(id) => format!("run {id}"),
                Err(_) => format!("baseline {reference}"),
            },
        ),
    };
    // The earlier run as it was recorded, statistics included: parsed as it
    // is decompressed, not analysed again, its samples left out (the change
    // since compares statistics only).
    let old = store
        .document(id)?
        .results_without_runs()
        .with_context(|| format!("history store {}: run {id}", store.location))?;
    let warning = (machine_of(&old.environment) != here).then(|| {
        format!(
            "run {id} was measured on another machine ({}, {} cores, host {}); ratios across machines mislead",
            old.environment.cpu_model,
            old.environment.cores,
            old.environment
                .machine
                .as_ref()
                .map_or("unknown", |m| m.hostname.as_str())
        )
    });
    if let Some(w) = &warning {
        tell!("WARNING: {w}");
    }
    let noise = prior(store, results, &here);
    // The last run is one sample of where a cell stands; a run the user named is the reference itself.
    let from_levels = compare_to.is_none();
    Ok(Some(super::diff::since(
        &old,
        results,
        &noise,
        (id, &label),
        from_levels,
        warning,
    )))
}

/// What narrows a suite's history to runs of the same content: nothing for
/// a suite file (its title names it, edits and all), the commands' hash for
/// `versus exec` (every ad-hoc run shares one title).
fn content_key(results: &Results) -> Option<&str> {
    results
        .suite
        .file
        .is_none()
        .then_some(results.suite.hash.as_deref())
        .flatten()
}

/// The run-to-run noise of the cells of `results`' suite on `machine`, from
/// the store's recent runs; empty (changes judged by their intervals alone)
/// when the store cannot say.
pub(crate) fn prior(store: &mut Store, results: &Results, machine: &str) -> Prior {
    match store.recent_medians(&results.suite.name, machine, content_key(results), noise::WINDOW) {
        Ok(by_cell) => {
            let groups = results
                .cells
                .iter()
                .map(|c| (c.id.clone(), results::group_key(&c.operation, &c.params)))
                .collect();
            Prior::from_history(by_cell, &groups)
        }
        Err(e) => {
            tell!(
                "note: the history store could not give run-to-run noise ({e:#}); changes are judged by their runs alone"
            );
            Prior::default()
        }
    }
}

/// A run id, or a baseline name (of `suite` when given; this machine's when several).
pub(crate) fn resolve(store: &mut Store, reference: &str, suite: Option<&str>) -> Result<i64> {
    if let Ok(id) = reference.parse::<i64>() {
        store.run(id)?;
        return Ok(id);
    }
    let mut found = store.baselines(reference)?;
    found.retain(|(s, _, _)| suite.is_none_or(|want| want == s));
    if found.len() > 1 {
        let here = this_machine();
        found.retain(|(_, m, _)| *m == here);
    }
    match found.as_slice() {
        [(_, _, id)] => Ok(*id),
        [] => bail!(
            "no run {reference} and no baseline named {reference}{} in the history store {}",
            suite.map(|s| format!(" for suite '{s}'")).unwrap_or_default(),
            store.location
        ),
        _ => bail!("baseline {reference} names runs of several suites; give a run id"),
    }
}
