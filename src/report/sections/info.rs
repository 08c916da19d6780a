//! The report's reference tables: the machine it ran on with the record of
//! the run (`record`), and each implementation that ran with its version,
//! note and artifact.

use crate::base::units::format_bytes;
use crate::report::tables::{Table, TableKind};
use crate::results::Results;

pub(crate) fn environment_table(results: &Results) -> Table {
    let e = &results.environment;
    let rows = vec![
        ("CPU", e.cpu_model.clone()),
        ("Cores", e.cores.to_string()),
        ("Memory", format_bytes(e.memory_bytes)),
        ("OS", e.os.clone()),
        ("Kernel", e.kernel.clone()),
        (
            "Load average at start",
            e.load_average.map_or("unknown".into(), |l| format!("{l:.2}")),
        ),
        (
            "CPU governor",
            e.cpu_governor.clone().unwrap_or_else(|| "not readable".into()),
        ),
        ("Memory limits enforced by", e.memory_limit_mechanism.clone()),
        ("versus", e.versus_version.clone()),
    ]
    .into_iter()
    .chain(crate::report::sections::record::rows(results))
    .collect::<Vec<_>>();
    Table {
        notes: vec![],
        runs: vec![],
        kind: TableKind::Info,
        title: "Environment".into(),
        labels: 2,
        header: vec!["".into(), "".into()],
        rows: rows.into_iter().map(|(k, v)| vec![k.to_string(), v]).collect(),
    }
}

/// One row per implementation that ran: its version, note and, where the
/// suite names one, its artifact's size (e.g. a WASM module, in bytes and
/// SI units); the suite's others are named under it as not run.
pub(crate) fn versions_table(results: &Results) -> Table {
    let ran = crate::report::sections::record::ran(results);
    let ran: std::collections::HashSet<&String> = ran.iter().collect();
    let impls: indexmap::IndexMap<&String, &crate::results::ImplementationInfo> = results
        .environment
        .implementations
        .iter()
        .filter(|(name, _)| ran.is_empty() || ran.contains(name))
        .collect();
    let missing = crate::report::sections::record::not_run(results);
    let artifacts = impls.values().any(|i| i.artifact.is_some());
    let mut header = vec!["implementation".to_string(), "version".into()];
    if artifacts {
        header.push("artifact".into());
    }
    header.push("note".into());
    Table {
        notes: if missing.is_empty() || ran.is_empty() {
            vec![]
        } else {
            vec![format!(
                "Not run (the suite defines them; this run left them out): {}.",
                crate::base::text::and_list(&missing)
            )]
        },
        runs: vec![],
        kind: TableKind::Info,
        title: "Implementations".into(),
        labels: header.len(),
        rows: impls
            .iter()
            .map(|(name, info)| {
                let mut row = vec![
                    (*name).clone(),
                    info.version.clone().unwrap_or_else(|| "(not given)".into()),
                ];
                if artifacts {
                    row.push(info.artifact.as_ref().map_or_else(String::new, |a| match a.bytes {
                        Some(b) => format!("{}: {b} bytes ({})", a.path, format_bytes(b)),
                        None => format!("{}: not found", a.path),
                    }));
                }
                row.push(info.note.clone().unwrap_or_default());
                row
            })
            .collect(),
        header,
    }
}

/// The suite's labelled matrix values (`filter = { count = "…" }`): what
/// each label in the tables, ids and charts stands for. `None` when the
/// suite labelled none.
pub(crate) fn labels_table(results: &Results) -> Option<Table> {
    let labels = &results.suite.labels;
    if labels.is_empty() {
        return None;
    }
    let rows = labels
        .iter()
        .flat_map(|(param, table)| {
            table
                .iter()
                .map(move |(label, value)| vec![param.clone(), label.clone(), value.to_string()])
        })
        .collect();
    Some(Table {
        notes: vec![],
        runs: vec![],
        kind: TableKind::Info,
        title: "Parameter labels".into(),
        labels: 3,
        header: vec!["parameter".into(), "label".into(), "value".into()],
        rows,
    })
}
