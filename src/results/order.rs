//! Where each measured run stood in its group's order: its place in its
//! round, the implementation whose run ended just before it started, and the
//! time between the two. Interleaving cancels drift but charges whatever one
//! run leaves behind (memory to reclaim, a cache evicted) to the next one;
//! with the order recorded, `judge::carryover` can tell a cell's runs after
//! itself from its runs after each other implementation.

use serde::{Deserialize, Serialize};

use super::column::Column;

/// One entry per measured run, in run order, beside `Samples`' columns.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct RunOrder {
    /// The group's implementations when the runs were taken, in the suite's
    /// order: the names `after` counts in.
    pub implementations: Vec<String>,
    /// Each run's place in its round, from 0 (blocked order: rounds of one run).
    pub position: Vec<u16>,
    /// Each run's predecessor: the index in `implementations` of the one
    /// whose run (warm-up or measured) ended last before this run started, in
    /// the same visit of the group; -1 when none did (the visit's first run:
    /// another group, or nothing, ran before it).
    pub after: Vec<i16>,
    /// Nanoseconds from the end of the run before (of any group; prepare and
    /// conclude commands and output checks fall in between) to this run's
    /// start, to the microsecond; 0 for the first run versus made.
    pub gap_ns: Column<1000>,
}

impl RunOrder {
    pub fn len(&self) -> usize {
        self.after.len()
    }

    pub fn is_empty(&self) -> bool {
        self.after.is_empty()
    }

    /// Records one run.
    pub fn push(&mut self, position: usize, after: Option<usize>, gap_ns: u64) {
        self.position.push(u16::try_from(position).unwrap_or(u16::MAX));
        self.after.push(after.and_then(|a| i16::try_from(a).ok()).unwrap_or(-1));
        self.gap_ns.push(gap_ns / 1000 * 1000);
    }

    /// The predecessor of run `i` by name; `None` for none.
    pub fn after_name(&self, i: usize) -> Option<&str> {
        let a = usize::try_from(*self.after.get(i)?).ok()?;
        self.implementations.get(a).map(String::as_str)
    }

    /// Appends a later segment's order. The later segment's indices are
    /// moved into this one's list of implementations (a later visit may
    /// measure fewer of them).
    pub fn append(&mut self, later: &RunOrder) {
        let map: Vec<i16> = later
            .implementations
            .iter()
            .map(|name| {
                let at = match self.implementations.iter().position(|n| n == name) {
                    Some(at) => at,
                    None => {
                        self.implementations.push(name.clone());
                        self.implementations.len() - 1
                    }
                };
                i16::try_from(at).unwrap_or(-1)
            })
            .collect();
        self.position.extend_from_slice(&later.position);
        self.after.extend(
            later
                .after
                .iter()
                .map(|a| usize::try_from(*a).ok().and_then(|a| map.get(a)).copied().unwrap_or(-1)),
        );
        self.gap_ns.append(&later.gap_ns);
    }

    /// Why the order does not fit `runs` runs, if it does not.
    pub fn problem(&self, runs: usize) -> Option<String> {
        for (name, len) in [
            ("position", self.position.len()),
            ("after", self.after.len()),
            ("gap_ns", self.gap_ns.len()),
        ] {
            if len != runs {
                return Some(format!("samples.order.{name} has {len} entries for {runs} runs"));
            }
        }
        let known = self.implementations.len() as i64;
        self.after
            .iter()
            .find(|a| !(-1..known).contains(&i64::from(**a)))
            .map(|a| format!("samples.order.after holds {a}: not -1 or an index into its {known} implementations"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_segment_counts_in_the_earlier_ones_names() {
        let mut first = RunOrder {
            implementations: vec!["a".into(), "b".into()],
            ..Default::default()
        };
        first.push(0, None, 0);
        first.push(1, Some(0), 1500);
        let mut later = RunOrder {
            implementations: vec!["b".into(), "c".into()],
            ..Default::default()
        };
        later.push(0, Some(1), 2000);
        first.append(&later);
        assert_eq!(first.implementations, ["a", "b", "c"]);
        assert_eq!(first.after, [-1, 0, 2]);
        assert_eq!(first.gap_ns, [0, 1000, 2000]);
        assert_eq!(first.after_name(2), Some("c"));
        assert_eq!(first.after_name(0), None);
        assert_eq!(first.problem(3), None);
        assert!(first.problem(4).is_some());
    }
}
