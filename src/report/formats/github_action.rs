//! github-action-benchmark's JSON for its `customSmallerIsBetter` tool
//! (`versus report --github-action`, `versus import --github-action`), so a
//! repository that charts its benchmarks with that action can chart versus's.
//!
//! The action reads an array of `{name, unit, value, range?, extra?}`. Each
//! ok cell gives its median time per call (`unit` "ns"), with `range` the
//! half width of the median's 95% interval ("± 12.5") and `extra` the
//! interval and the number of runs; and, where it was measured, the cell's
//! peak memory as a second entry named "… peak memory" (`unit` "bytes":
//! smaller is better too). Names are the cells' labels.

use serde::Serialize;

use crate::results::Results;

/// One entry of the array the action reads.
#[derive(Debug, Serialize)]
pub struct Entry {
    pub name: String,
    pub unit: String,
    pub value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<String>,
}

/// The entries, two per ok cell at most, in cell order.
pub fn entries(results: &Results) -> Vec<Entry> {
    let mut out = Vec::new();
    for cell in &results.cells {
        let Some(s) = &cell.stats else { continue };
        let interval = s.ci_low_ns.zip(s.ci_high_ns);
        out.push(Entry {
            name: cell.label(),
            unit: "ns".into(),
            value: s.median_ns,
            range: interval.map(|(lo, hi)| format!("± {:.4}", (hi - lo) / 2.0)),
            extra: Some(match interval {
                Some((lo, hi)) => format!("median of {} runs, 95% interval [{lo:.4}, {hi:.4}] ns", s.n),
                None => format!("median of {} runs", s.n),
            }),
        });
        if let Some(rss) = s.max_rss_bytes {
            out.push(Entry {
                name: format!("{} peak memory", cell.label()),
                unit: "bytes".into(),
                value: rss as f64,
                range: None,
                extra: s
                    .max_rss_at_most
                    .then(|| "an upper bound: no run could measure it exactly".into()),
            });
        }
    }
    out
}

/// The file's text.
pub fn render(results: &Results) -> serde_json::Result<String> {
    Ok(serde_json::to_string_pretty(&entries(results))? + "\n")
}
