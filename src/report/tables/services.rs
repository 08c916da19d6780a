//! The background services in a report: which ones ran (command, port,
//! version, log), and what each used per cell — its CPU time per call and
//! its peak memory, the service's side of the client's figures.

use super::{Table, TableKind, not_ok};
use crate::base::units::{format_bytes, format_nanos};
use crate::results::{Cell, Results, ServiceUsage};

/// One row per service: its version, port, command and log file.
pub(crate) fn services_table(results: &Results) -> Option<Table> {
    let services = &results.environment.services;
    if services.is_empty() {
        return None;
    }
    Some(Table {
        notes: vec![],
        runs: vec![],
        kind: TableKind::Info,
        title: "Services".into(),
        labels: 5,
        header: ["service", "version", "port", "command", "log"]
            .map(String::from)
            .to_vec(),
        rows: services
            .iter()
            .map(|(name, s)| {
                vec![
                    name.clone(),
                    s.version.clone().unwrap_or_else(|| "(not given)".into()),
                    s.port.map_or_else(String::new, |p| p.to_string()),
                    s.command.clone(),
                    s.log.clone(),
                ]
            })
            .collect(),
    })
}

/// The services whose use some of `cells` recorded, in the suite's order.
pub(crate) fn metered(results: &Results, cells: &[&Cell]) -> Vec<String> {
    results
        .environment
        .services
        .keys()
        .filter(|n| cells.iter().any(|c| c.services.iter().any(|u| &u.name == *n)))
        .cloned()
        .collect()
}

fn usage<'c>(cell: &'c Cell, service: &str) -> Option<&'c ServiceUsage> {
    cell.services.iter().find(|u| u.name == service)
}

/// A cell's figure for one service: `f` of its use, or why there is none.
pub(crate) fn figure(cell: &Cell, service: &str, f: fn(&ServiceUsage) -> Option<String>) -> String {
    if cell.stats.is_none() {
        return not_ok(cell);
    }
    usage(cell, service).and_then(f).unwrap_or_else(|| "—".into())
}

/// CPU time per call: the service's work for one call of the client.
pub(crate) fn cpu_text(u: &ServiceUsage) -> Option<String> {
    u.cpu_per_call_ns().map(format_nanos)
}

/// Peak resident memory over the cell's runs.
pub(crate) fn peak_text(u: &ServiceUsage) -> Option<String> {
    u.peak_rss_bytes.map(format_bytes)
}

/// Builds one table of the subset from a kind, a title and each cell's figure.
pub(crate) type TableBuilder<'b> = dyn Fn(TableKind, String, &dyn Fn(&Cell) -> String) -> Table + 'b;

/// Two tables per metered service: its CPU time per call and its peak memory.
pub(crate) fn cell_tables(results: &Results, cells: &[&Cell], suffix: &str, build: &TableBuilder) -> Vec<Table> {
    let mut tables = Vec::new();
    for service in metered(results, cells) {
        tables.push(build(
            TableKind::Time,
            format!("Service {service}: CPU time per call during the measured runs{suffix}"),
            &|c| figure(c, &service, cpu_text),
        ));
        tables.push(build(
            TableKind::Memory,
            format!("Service {service}: peak resident memory during the cell's runs{suffix}"),
            &|c| figure(c, &service, peak_text),
        ));
    }
    tables
}
