//! Glue between runs and the history store: before a run's results are
//! written, the store is opened and the "change since" an earlier run is
//! attached; after they are written, the run is recorded. A store that
//! cannot be opened or written never costs the run its results folder: its
//! error is returned only once the results are on disk. A server that went
//! away (restarted mid-run) is asked again for a while; if it still cannot
//! take the run, the run is left in `.versus/unrecorded/` with what the
//! store would have kept, for `versus history import`: nothing is lost.
//! Also `diff RUN|NAME`'s reading of recorded runs.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::app::cli::{Record, StoreArg};
use crate::history::judge::Prior;
use crate::history::machine_of;
use crate::history::runs::{self, resolve};
use crate::history::{self, Document, Location, Outside, RunMeta, Store, git_state};
use crate::results::{self, Results};

/// How long a run keeps trying a server that cannot take it, in seconds
/// (the environment variable overrides the default).
pub(super) const RETRY_ENV: &str = "VERSUS_STORE_RETRY_SECONDS";
const RETRY_DEFAULT_S: u64 = 30;

/// A run's link to the store, from before its results are written to after.
pub(super) struct Recording {
    location: Location,
    store: Result<Store>,
    meta: RunMeta,
    save_baseline: Option<String>,
    /// Where a run the store cannot take is left: `.versus/unrecorded/` of the project.
    unrecorded: PathBuf,
    /// Whether `VERSUS_STORE` named the store (not `--store`).
    from_env: bool,
}

/// The store `--store` names (or the default for `dir`). A default store
/// made now is said once, with where it is and why there.
pub(super) fn open(arg: &StoreArg, dir: &Path, outside: &Outside) -> Result<Store> {
    open_at(
        &Location::resolve(arg.store.as_deref(), dir, outside),
        arg.store.is_none(),
        outside,
    )
}

/// Opens the store at `location`; `default` when no --store chose it.
fn open_at(location: &Location, default: bool, outside: &Outside) -> Result<Store> {
    let new = default && matches!(location, Location::Sqlite(p) if !p.exists());
    let store = history::open(location)?;
    if new {
        let repository_root = match location {
            // ROOT/.versus/history.db: a repository's root holds .git.
            Location::Sqlite(p) => p
                .parent()
                .and_then(Path::parent)
                .is_some_and(|r| r.join(".git").exists()),
            _ => false,
        };
        let why = if location.is_user_data(outside) {
            "this folder is in no git repository, so its runs are kept in your data folder"
        } else if repository_root {
            "at the root of the git repository that holds the suite"
        } else {
            "in the suite's folder, which is in no git repository"
        };
        tell!(
            "History: a new store at {} ({why}); choose another with --store or VERSUS_STORE, or skip it with --no-history",
            location.shown()
        );
    }
    Ok(store)
}

/// Opens the store for a run of the suite in `dir` (None with --no-history)
/// and attaches the change since an earlier run to `results`. `hashed` is
/// what identifies the suite's content (the file, or exec's commands).
pub(super) fn start(
    record: &Record,
    dir: &Path,
    outside: &Outside,
    results: &mut Results,
    suite_hash: String,
    source: &str,
) -> Option<Recording> {
    if record.no_history {
        return None;
    }
    let meta = RunMeta {
        suite_hash,
        exit_status: None,
        git: git_state(dir, results.suite.git.as_ref()),
        source: source.to_string(),
        machine_id: None,
    };
    let location = Location::resolve(record.store.store.as_deref(), dir, outside);
    let mut store = open_at(&location, record.store.store.is_none(), outside);
    if let Ok(s) = &mut store {
        match runs::since(s, results, record.compare_to.as_deref()) {
            Ok(Some(since)) => results.since = Some(since),
            Ok(None) => {}
            Err(e) => store = Err(e),
        }
    }
    Some(Recording {
        location,
        store,
        meta,
        save_baseline: record.save_baseline.clone(),
        unrecorded: history::project_root(dir).join(".versus").join("unrecorded"),
        from_env: record.store.store.is_some() && std::env::var(history::STORE_ENV).ok() == record.store.store,
    })
}

/// The prior (`history::judge::prior`) for `versus diff`: from the store `--store` names, or the
/// default one where it already exists (none is made for a diff).
pub(super) fn diff_noise(arg: &StoreArg, old: &Results, new: &Results) -> Prior {
    let location = Location::resolve(arg.store.as_deref(), Path::new("."), &Outside::user_data());
    if matches!(&location, Location::Sqlite(p) if !p.is_file()) {
        return Prior::default();
    }
    let Ok(mut store) = history::open(&location) else {
        return Prior::default();
    };
    // Judged on the newer run's machine; a cross-machine diff has no shared noise.
    let machine = machine_of(&new.environment);
    if machine != machine_of(&old.environment) {
        return Prior::default();
    }
    runs::prior(&mut store, new, &machine)
}

impl Recording {
    /// How the store this run goes to packs its document.
    pub(super) fn packing(&self) -> crate::history::Packing {
        self.location.packing()
    }
}

/// `finish` with the document read from the results file at `path`, packed
/// as the store asks; nothing when not recording.
pub(super) fn finish_from_file(
    recording: Option<Recording>,
    results: &Results,
    path: &Path,
    status: u8,
) -> Result<Option<i64>> {
    let Some(rec) = &recording else { return Ok(None) };
    let document = Document::from_file(path, rec.packing())?;
    finish(recording, results, &document, status)
}

/// Records the run whose results file is `document`, once its results are
/// written. A server that cannot take it is asked again (see `RETRY_ENV`);
/// a run still not recorded is left in `.versus/unrecorded/` and the store's
/// error returned, after the results are safe.
pub(super) fn finish(
    recording: Option<Recording>,
    results: &Results,
    document: &Document,
    status: u8,
) -> Result<Option<i64>> {
    let Some(mut rec) = recording else { return Ok(None) };
    rec.meta.exit_status = Some(status);
    let mut outcome = match rec.store.as_mut() {
        Ok(store) => record(store, results, document, &rec.meta, rec.save_baseline.as_deref()),
        Err(e) => Err(anyhow::anyhow!("{e:#}")),
    };
    if outcome.is_err() && matches!(rec.location, Location::Postgres(_)) {
        outcome = retry(&rec, results, document, outcome);
    }
    let e = match outcome {
        Ok(id) => return Ok(Some(id)),
        Err(e) => e,
    };
    match leave_unrecorded(&rec, results, document) {
        Ok(path) => Err(e.context(format!(
            "the run was not recorded; it is kept in {}: record it with {}",
            path.display(),
            import_hint(&path, &rec.location, rec.from_env)
        ))),
        Err(keep) => Err(e.context(format!("the run was not recorded, nor kept to import later: {keep:#}"))),
    }
}

/// The command that records a run left in `path` later, to paste as it is:
/// it never holds the store's password, which comes from `VERSUS_STORE`
/// when that named the store, else from `PGPASSWORD`.
fn import_hint(path: &Path, location: &Location, from_env: bool) -> String {
    let command = format!(
        "versus history import {}",
        shell_words::quote(&path.display().to_string())
    );
    if from_env {
        return format!("`{command}` (VERSUS_STORE names the store)");
    }
    let store = match location {
        Location::Sqlite(p) => p.display().to_string(),
        Location::Postgres(url) => crate::base::redact::without_secrets(url),
    };
    let quoted = shell_words::quote(&store);
    match location {
        Location::Postgres(url) if store != *url => {
            format!("`{command} --store {quoted}` and the store's password in PGPASSWORD")
        }
        _ => format!("`{command} --store {quoted}`"),
    }
}

fn record(
    store: &mut Store,
    results: &Results,
    document: &Document,
    meta: &RunMeta,
    baseline: Option<&str>,
) -> Result<i64> {
    let id = store.record(results, document, meta)?;
    if let Some(name) = baseline {
        store.save_baseline(name, id)?;
        tell!(
            "History: run {id} recorded in {}, saved as baseline {name}",
            store.location
        );
    } else {
        tell!("History: run {id} recorded in {}", store.location);
    }
    Ok(id)
}

/// Asks the server again, at growing intervals, until the time allowed is up.
fn retry(rec: &Recording, results: &Results, document: &Document, first: Result<i64>) -> Result<i64> {
    let allowed = std::env::var(RETRY_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(RETRY_DEFAULT_S);
    let deadline = Instant::now() + Duration::from_secs(allowed);
    let mut wait = Duration::from_millis(500);
    let mut outcome = first;
    while let Err(e) = &outcome {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        tell!(
            "history store {}: cannot record the run ({}); trying again for {} s",
            rec.location.shown(),
            e.root_cause(),
            left.as_secs()
        );
        std::thread::sleep(wait.min(left));
        wait = (wait * 2).min(Duration::from_secs(8));
        outcome = history::open(&rec.location)
            .and_then(|mut s| record(&mut s, results, document, &rec.meta, rec.save_baseline.as_deref()));
    }
    outcome
}

/// Writes the run's document and what the store would have kept beside it
/// (`NAME.json`, `NAME.meta.json`), for `versus history import`.
fn leave_unrecorded(rec: &Recording, results: &Results, document: &Document) -> Result<PathBuf> {
    history::create_folder(&rec.unrecorded).with_context(|| format!("cannot create {}", rec.unrecorded.display()))?;
    let stamp: String = results
        .started_at
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let name = format!(
        "{}-{stamp}-{}",
        crate::base::folder::for_title(&results.suite.name),
        std::process::id()
    );
    let path = rec.unrecorded.join(format!("{name}.json"));
    document.write_text(&path)?;
    let mut meta = rec.meta.clone();
    meta.machine_id = Some(machine_of(&results.environment));
    fs::write(meta_path(&path), results::to_json_text(&meta)?)
        .with_context(|| format!("cannot write {}", meta_path(&path).display()))?;
    Ok(path)
}

/// The file beside a document left to import that holds its `RunMeta`.
pub(super) fn meta_path(document: &Path) -> PathBuf {
    let stem = document
        .file_stem()
        .map_or_else(Default::default, |s| s.to_string_lossy().into_owned());
    document.with_file_name(format!("{stem}.meta.json"))
}

/// `versus diff`: a results file, or a run id / baseline name from the store.
pub(super) fn load(reference: &str, arg: &StoreArg) -> Result<Results> {
    let path = Path::new(reference);
    if path.exists() || reference.ends_with(".json") {
        return results::read(path);
    }
    let mut store =
        open(arg, Path::new("."), &Outside::user_data()).with_context(|| format!("{reference} is not a file"))?;
    let id = resolve(&mut store, reference, None)?;
    store
        .document(id)?
        .results()
        .with_context(|| format!("run {id}: the recorded document is not a results file"))
}
