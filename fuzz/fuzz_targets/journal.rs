//! The journal reader (`versus report DIR` after a kill): arbitrary bytes as
//! `cells.jsonl`, read and set aside where torn, rebuilt into a document,
//! analysed and rendered as `versus report` does.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let path = std::env::temp_dir().join(format!("versus-fuzz-journal-{}", std::process::id()));
    if std::fs::write(&path, bytes).is_err() {
        return;
    }
    if let Ok(found) = versus::results::Journal::read(&path) {
        let why = versus::session::Why::Asked;
        let (mut doc, _) = versus::session::rebuild(found, &path, None, why);
        versus::analysis::reanalyze(&mut doc);
        let _ = versus::report::formats::markdown::render(&doc);
        let _ = versus::report::formats::terminal::summary(&doc);
    }
});
