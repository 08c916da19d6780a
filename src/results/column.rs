//! A column of per-run figures held in four bytes a run where it can be.
//!
//! `wait4` reports CPU time in microseconds and peak memory in KiB, and the
//! wall time of a run under 4.3 s fits 32 bits of nanoseconds; storing every
//! figure as a `u64` of its base unit doubles what 100,000 runs cost. A
//! `Column<UNIT>` keeps each value as a `u32` count of `UNIT`s while every
//! value is an exact multiple that fits, and moves to `u64`s of the base unit
//! the first time one does not, so it never loses a digit. On disk and to
//! every reader it is a plain list of base-unit values.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone)]
enum Repr {
    /// Values divided by the column's unit.
    Narrow(Vec<u32>),
    /// Values as they are.
    Wide(Vec<u64>),
}

/// Per-run values in a base unit (ns, bytes), held as `u32` multiples of `UNIT` while they fit.
#[derive(Clone)]
pub struct Column<const UNIT: u64>(Repr);

impl<const UNIT: u64> Default for Column<UNIT> {
    fn default() -> Self {
        Column(Repr::Narrow(Vec::new()))
    }
}

impl<const UNIT: u64> Column<UNIT> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, v: u64) {
        if let Repr::Narrow(xs) = &mut self.0 {
            match narrow::<UNIT>(v) {
                Some(n) => return xs.push(n),
                None => self.widen(),
            }
        }
        if let Repr::Wide(xs) = &mut self.0 {
            xs.push(v);
        }
    }

    /// Moves every value to `u64`, keeping the room already reserved.
    fn widen(&mut self) {
        if let Repr::Narrow(xs) = &self.0 {
            let mut wide = Vec::with_capacity(xs.capacity());
            wide.extend(xs.iter().map(|n| u64::from(*n) * UNIT));
            self.0 = Repr::Wide(wide);
        }
    }

    /// Appends every value of `other`, in order.
    pub fn append(&mut self, other: &Self) {
        self.reserve_exact(other.len());
        other.iter().for_each(|v| self.push(v));
    }

    pub fn reserve_exact(&mut self, more: usize) {
        match &mut self.0 {
            Repr::Narrow(xs) => xs.reserve_exact(more),
            Repr::Wide(xs) => xs.reserve_exact(more),
        }
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Narrow(xs) => xs.len(),
            Repr::Wide(xs) => xs.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<u64> {
        match &self.0 {
            Repr::Narrow(xs) => xs.get(i).map(|n| u64::from(*n) * UNIT),
            Repr::Wide(xs) => xs.get(i).copied(),
        }
    }

    pub fn first(&self) -> Option<u64> {
        self.get(0)
    }

    /// The values in base units, in run order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u64> + Clone + '_ {
        let (narrow, wide): (&[u32], &[u64]) = match &self.0 {
            Repr::Narrow(xs) => (xs, &[]),
            Repr::Wide(xs) => (&[], xs),
        };
        Values::<UNIT> {
            narrow: narrow.iter(),
            wide: wide.iter(),
        }
    }

    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }
}

/// `v` as a `u32` count of `UNIT`s, when that is exact.
fn narrow<const UNIT: u64>(v: u64) -> Option<u32> {
    if !v.is_multiple_of(UNIT) {
        return None;
    }
    u32::try_from(v / UNIT).ok()
}

/// One of the two halves is always empty; chaining them keeps one iterator type.
#[derive(Clone)]
struct Values<'a, const UNIT: u64> {
    narrow: std::slice::Iter<'a, u32>,
    wide: std::slice::Iter<'a, u64>,
}

impl<const UNIT: u64> Iterator for Values<'_, UNIT> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        match self.narrow.next() {
            Some(n) => Some(u64::from(*n) * UNIT),
            None => self.wide.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.narrow.len() + self.wide.len();
        (n, Some(n))
    }
}

impl<const UNIT: u64> ExactSizeIterator for Values<'_, UNIT> {}

impl<const UNIT: u64> FromIterator<u64> for Column<UNIT> {
    fn from_iter<I: IntoIterator<Item = u64>>(values: I) -> Self {
        let values = values.into_iter();
        let mut c = Column::new();
        c.reserve_exact(values.size_hint().0);
        values.for_each(|v| c.push(v));
        c
    }
}

impl<const UNIT: u64> From<Vec<u64>> for Column<UNIT> {
    fn from(values: Vec<u64>) -> Self {
        values.into_iter().collect()
    }
}

impl<const UNIT: u64> PartialEq for Column<UNIT> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<const UNIT: u64, const N: usize> PartialEq<[u64; N]> for Column<UNIT> {
    fn eq(&self, other: &[u64; N]) -> bool {
        self.len() == N && self.iter().eq(other.iter().copied())
    }
}

impl<const UNIT: u64> std::fmt::Debug for Column<UNIT> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<const UNIT: u64> Serialize for Column<UNIT> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, const UNIT: u64> Deserialize<'de> for Column<UNIT> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<u64>::deserialize(d).map(Column::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_multiples_stay_narrow_and_read_back_in_base_units() {
        let c: Column<1000> = vec![0, 1000, 4_294_967_295_000].into();
        assert!(matches!(c.0, Repr::Narrow(_)));
        assert_eq!(c, [0, 1000, 4_294_967_295_000]);
        assert_eq!(
            (c.len(), c.first(), c.get(2), c.get(3)),
            (3, Some(0), Some(4_294_967_295_000), None)
        );
    }

    #[test]
    fn a_value_that_does_not_fit_widens_without_losing_any() {
        for odd in [1001, 4_294_967_296_000, u64::MAX] {
            let mut c: Column<1000> = vec![2000, 3000].into();
            c.push(odd);
            c.push(5000);
            assert!(matches!(c.0, Repr::Wide(_)), "{odd}");
            assert_eq!(c, [2000, 3000, odd, 5000]);
        }
    }

    #[test]
    fn json_is_a_plain_list_of_base_units() {
        let c: Column<1024> = vec![4096, 1, 2048].into();
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(text, "[4096,1,2048]");
        let back: Column<1024> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, c);
    }
}
