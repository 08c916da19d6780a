//! The results reader behind `versus report` and `versus diff`, then what
//! those commands do with what it accepts: re-analyse, compare with itself,
//! and render every report. A file that passes the reader must never make
//! them panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use versus::report::{export, html, markdown, tables, terminal};

fuzz_target!(|text: &str| {
    let Ok(mut results) = versus::results::from_text(text) else { return };
    let _ = html::render(&results, None);
    let _ = markdown::render(&results);
    let _ = export::csv(&results);
    let _ = terminal::summary(&results);
    versus::analysis::analyze(&mut results, &[]);
    let d = versus::diff::diff(&results, &results);
    let _ = tables::diff_table(&d);
});
