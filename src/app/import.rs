//! `versus import`: files → a results document (`crate::import`) → the
//! same outputs and history record as a run. Glue only.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{recording, say, summary};
use crate::app::cli::ImportArgs;
use crate::app::exit;
use crate::base::folder;
use crate::history::Document;
use crate::import::{self, Options};
use crate::report::{self, Outputs};
use crate::runner::End;

pub fn import(args: ImportArgs) -> Result<ExitCode> {
    let mut files = Vec::new();
    for source in &args.files {
        let imported = import::read(source)?;
        tell!(
            "{}: {} benchmark(s) from {}",
            source.path.display(),
            imported.benches.len(),
            imported.harness
        );
        files.push((source.clone(), imported));
    }
    let options = Options {
        name: args.name.clone(),
        renames: args.rename.clone(),
        baseline: args.baseline.clone(),
        command: crate::session::command_line(),
    };
    let mut results = import::build(&files, &options)?;
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("versus-results").join(folder::for_title(&results.suite.name)));
    // Held to the end: no other versus writes into the folder meanwhile.
    let _claim = crate::session::claim(&out_dir, "--out")?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let hash = crate::base::digest::sha256_hex(results.suite.name.as_bytes());
    let recording = recording::start(
        &args.record,
        &cwd,
        &crate::history::Outside::user_data(),
        &mut results,
        hash,
        "import",
    );
    let results_path = out_dir.join("results.json");
    let report = out_dir.join("report.md");
    let outputs = Outputs {
        json: Some(results_path.clone()),
        markdown: vec![report.clone()],
        html: vec![out_dir.join("report.html")],
        ..super::exports(&args.exports)
    };
    report::write(&results, &outputs, None)?;
    say(&summary(&results, args.verbose, false));
    say(&format!(
        "\nResults: {}\nReport:  {}\n",
        results_path.display(),
        report.display()
    ));
    let status = exit::status_of_run(&results, &End::Complete);
    if let Some(r) = &recording {
        let document = Document::from_results(&results, r.packing())?;
        recording::finish(recording, &results, &document, status)?;
    }
    Ok(ExitCode::from(status))
}
