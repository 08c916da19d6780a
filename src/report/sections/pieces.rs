//! The table of a merged run's pieces (`versus merge`): which machine ran
//! which rows. A piece holds whole parameter points, so each row of the
//! per-operation tables (one parameter set) was measured on one machine.

use crate::report::tables::{Table, TableKind};
use crate::results::{Results, RunStatus};

/// One row per piece: shard, host, machine id, CPU, load, status, the rows it
/// ran. None unless the document was merged.
pub(crate) fn pieces_table(results: &Results) -> Option<Table> {
    let merge = results.merge.as_ref()?;
    let rows = merge
        .pieces
        .iter()
        .map(|p| {
            let e = &p.environment;
            let (host, id) = e.machine.as_ref().map_or(("unknown".into(), "unknown".into()), |m| {
                (m.hostname.clone(), m.id.clone())
            });
            let mut points: Vec<&str> = p
                .groups
                .iter()
                .map(|g| g.split_once('/').map_or(g.as_str(), |(_, params)| params))
                .collect();
            points.sort_unstable();
            points.dedup();
            vec![
                format!("{}/{}", p.index, p.count),
                host,
                id,
                format!("{} × {}", e.cores, e.cpu_model),
                e.load_average.map_or("unknown".into(), |l| format!("{l:.2}")),
                match p.status {
                    RunStatus::Complete => "complete".into(),
                    RunStatus::Interrupted => "interrupted".into(),
                    RunStatus::Running => "did not finish".into(),
                },
                if points.is_empty() {
                    "none".into()
                } else {
                    points.join("; ")
                },
            ]
        })
        .collect();
    Some(Table {
        notes: vec![],
        kind: TableKind::Info,
        title: "Pieces: which machine ran which rows".into(),
        labels: 7,
        runs: vec![],
        header: [
            "piece",
            "host",
            "machine id",
            "CPU",
            "load at start",
            "status",
            "rows (parameters)",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    })
}
