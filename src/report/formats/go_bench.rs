//! Go's benchmark text format (what `go test -bench` prints), so that
//! `benchstat` and the other tools of golang.org/x/perf read a versus run
//! (`versus report --go-bench`, `versus import --go-bench`).
//!
//! One line per measured sample, as `go test -count N` prints one per
//! repetition: `Benchmark<Operation>/impl=<implementation>/<param>=<value>…`,
//! the sample's number of calls, then `ns/op` (time per call), `MB/s` where
//! the cell has a payload (10^6 bytes a second, as Go's `SetBytes`), and
//! `B/op` where the runtime counted allocation. The implementation and the
//! parameters are name keys, so `benchstat -col /impl old.txt` compares the
//! implementations and `benchstat old.txt new.txt` two runs. Names may not
//! hold white space in this format: spaces become `_`, and `/` inside a
//! name (which would start a new key) becomes `∕`. Configuration lines
//! (`cpu:`, `versus:`) come first. Cells that did not end ok are left out.

use std::fmt::Write as _;

use crate::results::{Cell, Results};

/// The file's text.
pub fn render(results: &Results) -> String {
    let mut out = String::new();
    if !results.environment.cpu_model.is_empty() {
        let _ = writeln!(out, "cpu: {}", results.environment.cpu_model);
    }
    let _ = writeln!(out, "versus: {}", one_line(&results.suite.name));
    for cell in results.cells.iter().filter(|c| c.stats.is_some()) {
        lines(&mut out, cell);
    }
    out
}

/// The benchmark's name, `Benchmark` included.
pub fn name(cell: &Cell) -> String {
    let mut op = word(&cell.operation);
    if let Some(first) = op.get(..1) {
        // Go's benchmarks are exported names: an upper-case letter follows `Benchmark`.
        op = first.to_uppercase() + &op[1..];
    }
    let mut name = format!("Benchmark{op}/impl={}", word(&cell.implementation));
    for (k, v) in &cell.params {
        let _ = write!(name, "/{}={}", word(k), word(&v.to_string()));
    }
    name
}

fn lines(out: &mut String, cell: &Cell) {
    let name = name(cell);
    let samples = &cell.samples;
    let per_call = samples.per_call_ns();
    for (i, ns) in per_call.iter().enumerate() {
        let calls = samples.iterations.get(i).copied().unwrap_or(1);
        let _ = write!(out, "{name}\t{calls}\t{ns} ns/op");
        if let Some(bytes) = cell.payload_bytes.filter(|_| *ns > 0.0) {
            let _ = write!(out, "\t{:.2} MB/s", bytes as f64 / (ns / 1e9) / 1e6);
        }
        if let Some(alloc) = samples
            .alloc_bytes
            .get(i)
            .filter(|_| samples.alloc_bytes.len() == per_call.len())
        {
            let _ = write!(out, "\t{} B/op", *alloc as f64 / calls.max(1) as f64);
        }
        out.push('\n');
    }
}

/// A name part with no white space and no `/`.
fn word(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_whitespace() => '_',
            '/' => '∕',
            c => c,
        })
        .collect()
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::word;

    #[test]
    fn name_parts_hold_no_white_space_and_no_slash() {
        assert_eq!(word("sleep 0.01"), "sleep_0.01");
        assert_eq!(word("rust/iter"), "rust∕iter");
        assert_eq!(word("a\tb"), "a_b");
    }
}
