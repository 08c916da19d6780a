//! What `versus bisect` concluded, kept beside the runs it recorded: the
//! cell, the first bad commit when one was found, bad against good, the
//! conclusion in words, and the whole `bisect.json` for a later reader.
//! A bisection is filed under its last recorded run, so it belongs to that
//! run's suite and machine and is pruned with it.

use anyhow::Result;

use super::Store;

/// One bisection, as `versus bisect` hands it to the store.
#[derive(Debug, Clone, PartialEq)]
pub struct Bisect {
    /// The last run the bisection recorded.
    pub run_id: i64,
    /// The cell bisected, `op/impl/params` as the suite declares it.
    pub cell: String,
    pub finished_at: String,
    /// The first bad commit, when the bisection found one.
    pub first_bad: Option<String>,
    /// The bad end's time over the good end's, from its last measurement.
    pub ratio: Option<f64>,
    /// Its conclusion, one line.
    pub conclusion: String,
    /// The bisection's `bisect.json`.
    pub summary: String,
}

/// A bisection as read back, with its run's suite and machine.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredBisect {
    pub suite_name: String,
    pub machine_id: String,
    pub bisect: Bisect,
}

impl Store {
    /// Keeps `b`; its run must be in the store.
    pub fn record_bisect(&mut self, b: &Bisect) -> Result<()> {
        self.transaction(|db| {
            db.execute(
                "INSERT INTO bisects (run_id, cell_id, finished_at, first_bad, ratio, conclusion, summary) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                &[
                    b.run_id.into(),
                    b.cell.as_str().into(),
                    b.finished_at.as_str().into(),
                    b.first_bad.as_deref().into(),
                    b.ratio.into(),
                    b.conclusion.as_str().into(),
                    b.summary.as_str().into(),
                ],
            )?;
            Ok(())
        })
    }

    /// Every bisection in the store, newest first, without its `bisect.json`.
    pub fn bisects(&mut self) -> Result<Vec<StoredBisect>> {
        let rows = self.db.query(
            "SELECT r.suite_name, r.machine_id, b.run_id, b.cell_id, b.finished_at, b.first_bad, b.ratio, b.conclusion \
             FROM bisects b JOIN runs r ON r.id = b.run_id ORDER BY b.id DESC",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| StoredBisect {
                suite_name: r[0].text().unwrap_or_default(),
                machine_id: r[1].text().unwrap_or_default(),
                bisect: Bisect {
                    run_id: r[2].int().unwrap_or(0),
                    cell: r[3].text().unwrap_or_default(),
                    finished_at: r[4].text().unwrap_or_default(),
                    first_bad: r[5].text(),
                    ratio: r[6].real(),
                    conclusion: r[7].text().unwrap_or_default(),
                    summary: String::new(),
                },
            })
            .collect())
    }
}
