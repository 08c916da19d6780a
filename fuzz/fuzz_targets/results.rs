//! The results reader behind `versus report` and `versus diff`, then what
//! those commands do with what it accepts: re-analyse, compare with itself,
//! and render every report. A file that passes the reader must never make
//! them panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use versus::report::formats::{export, html, markdown, terminal};

fuzz_target!(|text: &str| {
    let Ok(mut results) = versus::results::from_text(text) else { return };
    let _ = html::render(&results, None);
    let _ = markdown::render(&results);
    let _ = export::csv(&results);
    let _ = terminal::summary(&results);
    versus::analysis::analyze(&mut results, &[]);
    let book = versus::history::judge::Prior::default();
    let d = versus::history::runs::diff(&results, &results, versus::base::metric::Metric::Wall, &book);
    let _ = versus::history::runs::table(&d, 0.01);
});
