//! `versus exec`'s parameters, hyperfine's way: `-L VAR a,b,c` lists and
//! `-P VAR MIN MAX [-D STEP]` scans become the suite's matrix. hyperfine
//! runs the benchmarks of a list product with the first `-L` changing
//! fastest (after the commands), and a scan in increasing order; a suite's
//! matrix expands with its first parameter outermost, so the lists go into
//! the matrix last flag first, and the groups then run in hyperfine's order.

use anyhow::{Result, bail};
use indexmap::IndexMap;

use crate::base::params::ParamValue;

/// Most values a scan may have (hyperfine's limit too).
const MAX_SCAN_VALUES: usize = 100_000;

/// The matrix from `-L` pairs (VAR VALUES, flattened) or one `-P` triple.
pub(crate) fn matrix(
    lists: &[String],
    scan: &[String],
    step: Option<&str>,
) -> Result<IndexMap<String, Vec<ParamValue>>> {
    let mut matrix = IndexMap::new();
    if !scan.is_empty() {
        let [name, min, max] = scan else {
            bail!("-P/--parameter-scan: give it once, as -P VAR MIN MAX");
        };
        matrix.insert(name.clone(), scan_values(min, max, step)?);
        return Ok(matrix);
    }
    for pair in lists.chunks(2).rev() {
        let [name, values] = pair else {
            bail!("-L/--parameter-list: give a name and a list, as -L VAR a,b,c");
        };
        if matrix.contains_key(name) {
            bail!("-L/--parameter-list: the parameter '{name}' is given twice");
        }
        matrix.insert(
            name.clone(),
            split_list(values).into_iter().map(ParamValue::Str).collect(),
        );
    }
    // The matrix was built last flag first; keep that order (it is the run order).
    Ok(matrix)
}

/// "a,b\,c" → ["a", "b,c"]: commas separate, `\,` and `\\` escape.
pub(super) fn split_list(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n @ (',' | '\\')) => out.last_mut().expect("never empty").push(n),
                Some(n) => out.last_mut().expect("never empty").extend(['\\', n]),
                None => out.last_mut().expect("never empty").push('\\'),
            },
            ',' => out.push(String::new()),
            c => out.last_mut().expect("never empty").push(c),
        }
    }
    out
}

/// A decimal as an integer count of 10^-scale.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Decimal {
    units: i128,
    scale: u32,
}

impl Decimal {
    fn parse(text: &str) -> Option<Decimal> {
        let t = text.trim();
        let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        let digits_ok = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !digits_ok(whole) || !digits_ok(frac) || frac.len() > 18 {
            return None;
        }
        let units: i128 = format!("{whole}{frac}").parse().ok()?;
        Some(Decimal {
            units: if neg { -units } else { units },
            scale: frac.len() as u32,
        })
    }

    fn rescale(self, scale: u32) -> i128 {
        self.units * 10i128.pow(scale - self.scale)
    }

    fn format(units: i128, scale: u32) -> String {
        if scale == 0 {
            return units.to_string();
        }
        let sign = if units < 0 { "-" } else { "" };
        let p = 10i128.pow(scale);
        let a = units.abs();
        format!("{sign}{}.{:0width$}", a / p, a % p, width = scale as usize)
    }
}

/// MIN, MIN+STEP, … up to MAX inclusive: integers when all three are
/// integers, else decimals written with as many places as MIN or STEP has.
pub(super) fn scan_values(min: &str, max: &str, step: Option<&str>) -> Result<Vec<ParamValue>> {
    let ints = (
        min.parse::<i32>(),
        max.parse::<i32>(),
        step.unwrap_or("1").parse::<i32>(),
    );
    let bad = |what: &str, v: &str| anyhow::anyhow!("-P/--parameter-scan: {what} '{v}' is not a number");
    let (lo, hi, by) = if let (Ok(lo), Ok(hi), Ok(by)) = ints {
        (
            Decimal {
                units: lo.into(),
                scale: 0,
            },
            Decimal {
                units: hi.into(),
                scale: 0,
            },
            Decimal {
                units: by.into(),
                scale: 0,
            },
        )
    } else {
        let lo = Decimal::parse(min).ok_or_else(|| bad("MIN", min))?;
        let hi = Decimal::parse(max).ok_or_else(|| bad("MAX", max))?;
        let Some(step) = step else {
            bail!("-P/--parameter-scan {min} {max}: a decimal range needs a step: add -D, e.g. -D 0.1");
        };
        let by = Decimal::parse(step)
            .ok_or_else(|| anyhow::anyhow!("-D/--parameter-step-size: '{step}' is not a number"))?;
        (lo, hi, by)
    };
    let scale = lo.scale.max(by.scale).max(hi.scale);
    let (lo_u, hi_u, by_u) = (lo.rescale(scale), hi.rescale(scale), by.rescale(scale));
    if hi_u < lo_u {
        bail!("-P/--parameter-scan: MAX ({max}) is below MIN ({min}): the range is empty");
    }
    if by_u <= 0 {
        bail!("-D/--parameter-step-size: the step must be above 0");
    }
    if (hi_u - lo_u) / by_u >= MAX_SCAN_VALUES as i128 {
        bail!("-P/--parameter-scan: more than {MAX_SCAN_VALUES} values; use a larger step (-D)");
    }
    // As hyperfine's decimals print: MIN with its own places, every later value
    // (a sum with STEP) with the places of MIN or STEP, whichever has more.
    let mut values = Vec::new();
    let mut v = lo_u;
    while v <= hi_u {
        let shown = if v == lo_u { lo.scale } else { lo.scale.max(by.scale) };
        values.push(if scale == 0 {
            ParamValue::Int(v as i64)
        } else {
            ParamValue::Str(Decimal::format(v / 10i128.pow(scale - shown), shown))
        });
        v += by_u;
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(v: Vec<ParamValue>) -> Vec<String> {
        v.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn lists_split_on_unescaped_commas() {
        assert_eq!(split_list("a,b"), vec!["a", "b"]);
        assert_eq!(split_list(r"hello\, world,x"), vec!["hello, world", "x"]);
        assert_eq!(split_list(""), vec![""]);
        assert_eq!(split_list(r"a\\,b"), vec![r"a\", "b"]);
    }

    #[test]
    fn scans_are_inclusive_and_step_by_delta() {
        assert_eq!(texts(scan_values("1", "4", None).unwrap()), vec!["1", "2", "3", "4"]);
        assert_eq!(texts(scan_values("1", "6", Some("2")).unwrap()), vec!["1", "3", "5"]);
        assert_eq!(
            texts(scan_values("0.3", "0.7", Some("0.2")).unwrap()),
            vec!["0.3", "0.5", "0.7"]
        );
        assert_eq!(
            texts(scan_values("0", "1", Some("0.25")).unwrap()),
            vec!["0", "0.25", "0.50", "0.75", "1.00"]
        );
        assert!(scan_values("0.1", "0.5", None).is_err());
        assert!(scan_values("5", "1", None).is_err());
        assert!(scan_values("1", "5", Some("0")).is_err());
    }

    #[test]
    fn the_first_list_changes_fastest() {
        let m = matrix(&["a".into(), "1,2".into(), "b".into(), "x,y".into()], &[], None).unwrap();
        let points: Vec<String> = crate::plan::expand(&m)
            .iter()
            .map(crate::base::params::params_key)
            .collect();
        assert_eq!(points, vec!["b=x,a=1", "b=x,a=2", "b=y,a=1", "b=y,a=2"]);
    }
}
