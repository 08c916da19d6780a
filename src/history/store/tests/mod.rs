//! The store on SQLite always, and on PostgreSQL when `VERSUS_TEST_POSTGRES_URL`
//! names a server (scripts/ci/postgres.sh starts one): recording and reading
//! back, migrations from an empty and from an older schema, a newer schema
//! refused, concurrent writers losing nothing, and export giving back the
//! recorded document byte for byte.

mod tls;

use std::path::Path;

use super::backend::Backend;
use super::*;
use crate::base::metric::Metric;
use crate::results::{self, MetricStats, Results};

fn fixture() -> (Results, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
    (results::read(&path).unwrap(), std::fs::read_to_string(&path).unwrap())
}

fn doc(text: &str) -> Document {
    Document::from_text(text, super::Packing::Bzip2)
}

fn meta() -> RunMeta {
    RunMeta {
        suite_hash: "abc".into(),
        exit_status: Some(0),
        git: Git {
            commit: Some("0123".into()),
            branch: Some("main".into()),
            dirty: Some(false),
        },
        source: "run".into(),
        machine_id: None,
    }
}

/// A fresh, empty store per call.
type Fresh = dyn Fn() -> Location;

fn sqlite_fresh() -> (tempfile::TempDir, Box<Fresh>) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_path_buf();
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let fresh = move || {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Location::Sqlite(base.join(format!("nested/s{n}/history.db")))
    };
    (dir, Box::new(fresh))
}

/// A new database on the test server for each call, or None (with the reason printed).
fn postgres_fresh() -> Option<Box<Fresh>> {
    let Ok(url) = std::env::var("VERSUS_TEST_POSTGRES_URL") else {
        eprintln!("skipped: VERSUS_TEST_POSTGRES_URL is not set (scripts/ci/postgres.sh starts a server)");
        return None;
    };
    Some(Box::new(move || {
        let name = format!("versus_t_{}_{}", std::process::id(), rand::random::<u32>());
        let mut admin = postgres::Postgres::connect(&url).unwrap();
        admin.batch(&format!("CREATE DATABASE {name}")).unwrap();
        let (base, query) = url.split_once('?').map_or((url.as_str(), None), |(b, q)| (b, Some(q)));
        let root = base.rsplit_once('/').map_or(base, |(r, _)| r);
        Location::Postgres(match query {
            Some(q) => format!("{root}/{name}?{q}"),
            None => format!("{root}/{name}"),
        })
    }))
}

fn records_and_reads_back(fresh: &Fresh) {
    let loc = fresh();
    let (r, text) = fixture();
    let mut s = open(&loc).unwrap();
    assert_eq!(s.schema_version().unwrap(), schema::VERSION);
    let a = s.record(&r, &doc(&text), &meta()).unwrap();
    let b = s.record(&r, &doc(&text), &meta()).unwrap();
    assert!(b > a);
    assert_eq!(
        s.document(a).unwrap().text().unwrap(),
        text,
        "export gives back the recorded bytes"
    );
    let runs = s.list(&Filter::default(), 10).unwrap();
    assert_eq!(runs.iter().map(|r| r.id).collect::<Vec<_>>(), [b, a]);
    let summaries = s.summaries(a).unwrap();
    assert_eq!(summaries.len(), r.cells.len());
    let first = r.cells.iter().min_by_key(|c| c.id.clone()).unwrap();
    assert_eq!(summaries[0].cell_id, first.id);
    assert_eq!(summaries[0].median_ns, first.stats.as_ref().map(|s| s.median_ns));
    assert_eq!(runs[0].cells, r.cells.len() as i64);
    assert_eq!(runs[0].git.branch.as_deref(), Some("main"));
    let machine = runs::machine_of(&r.environment);
    assert_eq!(s.last_run(&r.suite.name, &machine, None).unwrap(), Some(b));
    assert_eq!(s.last_run(&r.suite.name, "elsewhere", None).unwrap(), None);
    // An interrupted run is kept but is not what "change since" compares with.
    let mut cut = r.clone();
    cut.status = crate::results::RunStatus::Interrupted;
    let c = s.record(&cut, &doc(&text), &meta()).unwrap();
    assert_eq!(s.last_run(&r.suite.name, &machine, None).unwrap(), Some(b));
    s.prune(&[c]).unwrap();
    let filtered = Filter {
        branch: Some("other".into()),
        ..Default::default()
    };
    assert!(s.list(&filtered, 10).unwrap().is_empty());
    s.save_baseline("before", a).unwrap();
    s.save_baseline("before", a).unwrap();
    assert_eq!(s.baselines("before").unwrap().len(), 1);
    let (deleted, kept) = s.prune(&[a, b]).unwrap();
    assert_eq!((deleted, kept), (1, vec![a]), "a run a baseline names is kept");
    assert!(s.document(b).is_err());
    // Reopening migrates nothing and keeps everything.
    drop(s);
    let mut s = open(&loc).unwrap();
    assert_eq!(s.document(a).unwrap().text().unwrap(), text);
    let mut points = 0;
    s.trend_points(&r.suite.name, &machine, 0, None, Metric::Wall, &mut |_| points += 1)
        .unwrap();
    assert_eq!(
        points,
        r.cells.len(),
        "the pruned runs' cells are gone, the kept run's are there"
    );
}

/// A cell's instruction statistics are recorded beside its time and read
/// back by metric; cells without counts are not in an instructions trend.
fn records_counts_by_metric(fresh: &Fresh) {
    let loc = fresh();
    let (mut r, text) = fixture();
    let counted = r.cells.iter().position(|c| c.stats.is_some()).expect("an ok cell");
    r.cells[counted].stats.as_mut().unwrap().instructions = Some(MetricStats {
        n: 6,
        median: 1_000_000.0,
        mean: 1_000_010.0,
        stddev: Some(5.0),
        min: 999_990.0,
        max: 1_000_030.0,
        ci_low: Some(999_995.0),
        ci_high: Some(1_000_020.0),
        levels: None,
        repeatability: 0.0,
    });
    let mut s = open(&loc).unwrap();
    let a = s.record(&r, &doc(&text), &meta()).unwrap();
    s.record(&r, &doc(&text), &meta()).unwrap();
    let machine = runs::machine_of(&r.environment);
    let mut points = Vec::new();
    s.trend_points(&r.suite.name, &machine, 0, None, Metric::Instructions, &mut |p| {
        points.push(p)
    })
    .unwrap();
    assert_eq!(points.len(), 2, "one counted cell in two runs");
    assert!(
        points
            .iter()
            .all(|p| p.median_ns == Some(1_000_000.0) && p.ci_low_ns == Some(999_995.0))
    );
    let mut medians = 0;
    s.trend_medians(&r.suite.name, &machine, 0, None, Metric::Wall, &mut |_, _, _| {
        medians += 1
    })
    .unwrap();
    assert_eq!(medians, 2 * r.cells.len(), "time is every cell's");
    // A pruned run takes its counts with it.
    s.prune(&[a]).unwrap();
    let mut left = 0;
    s.trend_medians(
        &r.suite.name,
        &machine,
        0,
        None,
        Metric::Instructions,
        &mut |_, _, _| left += 1,
    )
    .unwrap();
    assert_eq!(left, 1);
}

/// A run as versus wrote it under schema 2: samples in every cell row, the
/// document as text, no series.
fn record_v2(db: &mut dyn Backend, r: &Results, text: &str) -> i64 {
    let machine = runs::machine_of(&r.environment);
    db.execute(
        "INSERT INTO machines (id, hostname, cpu_model, cores, memory_bytes, os, kernel, first_seen) \
         VALUES (?1, 'h', 'cpu', 1, 1, 'os', 'k', 'now') ON CONFLICT (id) DO NOTHING",
        &[machine.as_str().into()],
    )
    .unwrap();
    let rows = db
        .query(
            "INSERT INTO runs (machine_id, suite_name, suite_hash, started_at, status, versus_version, command, \
             recorded_at, source, document) VALUES (?1, ?2, 'h', ?3, 'complete', 'v', 'c', 'now', 'run', ?4) RETURNING id",
            &[
                machine.as_str().into(),
                r.suite.name.as_str().into(),
                r.started_at.as_str().into(),
                text.into(),
            ],
        )
        .unwrap();
    let id = rows[0][0].int().unwrap();
    for c in &r.cells {
        let s = c.stats.as_ref();
        db.execute(
            "INSERT INTO cells (run_id, cell_id, implementation, operation, params, outcome, n, median_ns, \
             ci_low_ns, ci_high_ns, mean_ns, stddev_ns, version, samples) \
             VALUES (?1, ?2, ?3, ?4, '{}', ?5, ?6, ?7, NULL, NULL, NULL, NULL, 'v1', '[]')",
            &[
                id.into(),
                c.id.as_str().into(),
                c.implementation.as_str().into(),
                c.operation.as_str().into(),
                serde_json::to_value(c.outcome).unwrap().as_str().unwrap().into(),
                s.map(|s| s.n as i64).into(),
                s.map(|s| s.median_ns).into(),
            ],
        )
        .unwrap();
    }
    id
}

fn migrates_from_the_previous_schema(fresh: &Fresh) {
    let loc = fresh();
    let (r, text) = fixture();
    let mut db = raw(&loc);
    schema::migrate(db.as_mut(), 2, "test").unwrap();
    let (a, b) = (record_v2(db.as_mut(), &r, &text), record_v2(db.as_mut(), &r, &text));
    drop(db);
    let mut s = open(&loc).unwrap();
    assert_eq!(s.schema_version().unwrap(), schema::VERSION);
    assert_eq!(
        s.document(a).unwrap().text().unwrap(),
        text,
        "an old run's text reads back"
    );
    let runs = s.list(&Filter::default(), 10).unwrap();
    assert!(
        runs.iter().all(|x| x.cells == r.cells.len() as i64),
        "cell counts carried over"
    );
    let machine = runs::machine_of(&r.environment);
    assert_eq!(s.series(&r.suite.name, &machine).unwrap().len(), r.cells.len());
    let mut points = 0;
    s.trend_points(&r.suite.name, &machine, 0, None, Metric::Wall, &mut |_| points += 1)
        .unwrap();
    assert_eq!(points, 2 * r.cells.len(), "every old cell row carried over");
    // New runs join the old ones' series.
    let c = s.record(&r, &doc(&text), &meta()).unwrap();
    assert_eq!(s.series(&r.suite.name, &machine).unwrap().len(), r.cells.len());
    assert_eq!(s.last_run(&r.suite.name, &machine, None).unwrap(), Some(c));
    s.save_baseline("kept", a).unwrap();
    assert_eq!(s.prune(&[a, b]).unwrap(), (1, vec![a]));
}

/// The fixture with `n` cells (its cells repeated under new ids).
fn wide(n: usize) -> (Results, String) {
    let (mut r, _) = fixture();
    let base = r.cells.clone();
    r.cells = (0..n)
        .map(|i| {
            let mut c = base[i % base.len()].clone();
            c.id = format!("{}#{i}", c.id);
            c
        })
        .collect();
    let text = results::to_json_text(&r).unwrap();
    (r, text)
}

/// Recording costs a fixed number of statements whatever the run's size
/// (on PostgreSQL each is one round trip), and opening a store that is up
/// to date costs one.
fn records_in_a_few_statements(fresh: &Fresh) {
    let loc = fresh();
    let mut counts = Vec::new();
    for cells in [3, 300] {
        let (r, text) = wide(cells);
        let mut s = open(&loc).unwrap();
        s.record(&r, &doc(&text), &meta()).unwrap();
        let before = s.statements();
        s.record(&r, &doc(&text), &meta()).unwrap();
        counts.push(s.statements() - before);
    }
    assert_eq!(counts[0], counts[1], "the same statements for 3 cells and 300");
    assert!(counts[1] <= 7, "a run in {} statements", counts[1]);
    let opened = open(&loc).unwrap().statements();
    // SQLite counts its connection settings as one more.
    assert!(opened <= 2, "opening took {opened} statements");
}

/// Pruning a run takes the series only it had (on PostgreSQL with no
/// index or foreign key by series since schema 5), and keeps the rest.
fn prune_sweeps_series_left_without_cells(fresh: &Fresh) {
    let loc = fresh();
    let (r, text) = fixture();
    let (w, wide_text) = wide(5);
    let machine = runs::machine_of(&r.environment);
    let mut s = open(&loc).unwrap();
    s.record(&r, &doc(&text), &meta()).unwrap();
    let b = s.record(&w, &doc(&wide_text), &meta()).unwrap();
    assert_eq!(s.series(&r.suite.name, &machine).unwrap().len(), r.cells.len() + 5);
    assert_eq!(s.prune(&[b]).unwrap(), (1, vec![]));
    assert_eq!(
        s.series(&r.suite.name, &machine).unwrap().len(),
        r.cells.len(),
        "the pruned run's own series went with it"
    );
    let mut points = 0;
    s.trend_points(&r.suite.name, &machine, 0, None, Metric::Wall, &mut |_| points += 1)
        .unwrap();
    assert_eq!(points, r.cells.len(), "the kept run's cells stay");
}

fn refuses_a_newer_schema(fresh: &Fresh) {
    let loc = fresh();
    drop(open(&loc).unwrap());
    let mut db = raw(&loc);
    db.execute("UPDATE versus_schema SET version = 99", &[]).unwrap();
    drop(db);
    let err = format!("{:#}", open(&loc).err().expect("a newer schema is refused"));
    assert!(err.contains("version 99") && err.contains(&loc.shown()), "{err}");
}

fn concurrent_writers_lose_nothing(fresh: &Fresh) {
    let loc = fresh();
    drop(open(&loc).unwrap());
    let (r, text) = fixture();
    let (writers, each) = (4, 5);
    std::thread::scope(|scope| {
        for _ in 0..writers {
            let (loc, r, text) = (loc.clone(), r.clone(), text.clone());
            scope.spawn(move || {
                let mut s = open(&loc).unwrap();
                for _ in 0..each {
                    s.record(&r, &doc(&text), &meta()).unwrap();
                }
            });
        }
    });
    let mut s = open(&loc).unwrap();
    let runs = s.list(&Filter::default(), 1000).unwrap();
    assert_eq!(runs.len(), writers * each);
    assert!(runs.iter().all(|x| x.cells == r.cells.len() as i64));
}

fn concurrent_first_opens_migrate_once(fresh: &Fresh) {
    let loc = fresh();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let loc = loc.clone();
            scope.spawn(move || {
                open(&loc).unwrap();
            });
        }
    });
    assert_eq!(open(&loc).unwrap().schema_version().unwrap(), schema::VERSION);
}

fn raw(loc: &Location) -> Box<dyn Backend> {
    match loc {
        Location::Sqlite(p) => Box::new(sqlite::Sqlite::open(p).unwrap()),
        Location::Postgres(u) => Box::new(postgres::Postgres::connect(u).unwrap()),
    }
}

/// A test case run against each backend.
type Case = fn(&Fresh);

const CASES: &[(&str, Case)] = &[
    ("records_counts_by_metric", records_counts_by_metric),
    ("records_and_reads_back", records_and_reads_back),
    ("migrates_from_the_previous_schema", migrates_from_the_previous_schema),
    ("refuses_a_newer_schema", refuses_a_newer_schema),
    (
        "prune_sweeps_series_left_without_cells",
        prune_sweeps_series_left_without_cells,
    ),
    ("records_in_a_few_statements", records_in_a_few_statements),
    ("concurrent_writers_lose_nothing", concurrent_writers_lose_nothing),
    (
        "concurrent_first_opens_migrate_once",
        concurrent_first_opens_migrate_once,
    ),
];

#[test]
fn sqlite_store() {
    let (_dir, fresh) = sqlite_fresh();
    for (name, case) in CASES {
        eprintln!("sqlite: {name}");
        case(fresh.as_ref());
    }
}

fn file_bytes(p: &Path) -> u64 {
    let wal = p.with_extension("db-wal");
    std::fs::metadata(p).unwrap().len() + std::fs::metadata(wal).map_or(0, |m| m.len())
}

/// Fills a store with 30 runs of 300 cells, prunes all but one, and returns
/// the file's size (with its WAL) before and after.
fn prune_most(loc: &Location, path: &Path) -> (u64, u64) {
    let (r, text) = wide(300);
    let mut s = open(loc).unwrap();
    let ids: Vec<i64> = (0..30).map(|_| s.record(&r, &doc(&text), &meta()).unwrap()).collect();
    let before = file_bytes(path);
    assert_eq!(s.prune(&ids[..29]).unwrap(), (29, vec![]));
    (before, file_bytes(path))
}

#[test]
fn prune_gives_the_space_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let (before, after) = prune_most(&Location::Sqlite(path.clone()), &path);
    assert!(after * 4 < before, "{before} bytes before, {after} after");
    // A store made before incremental auto-vacuum: the first prune rewrites it once.
    let old = dir.path().join("old.db");
    let mut db = sqlite::Sqlite::open(&old).unwrap();
    db.batch("PRAGMA auto_vacuum = NONE; VACUUM").unwrap();
    schema::migrate(&mut db, 2, "old").unwrap();
    drop(db);
    let (before, after) = prune_most(&Location::Sqlite(old.clone()), &old);
    assert!(after * 4 < before, "{before} bytes before, {after} after");
    let mut db = sqlite::Sqlite::open(&old).unwrap();
    let mode = db.query("PRAGMA auto_vacuum", &[]).unwrap();
    assert_eq!(mode[0][0].int(), Some(2), "incremental from then on");
}

#[test]
fn postgres_store() {
    let Some(fresh) = postgres_fresh() else { return };
    for (name, case) in CASES {
        eprintln!("postgres: {name}");
        case(fresh.as_ref());
    }
}

#[test]
fn an_unreachable_server_is_named_without_its_password() {
    let err = open(&Location::parse("postgres://me:hunter2@127.0.0.1:1/db"))
        .err()
        .expect("nothing listens on port 1");
    let text = format!("{err:#}");
    assert!(
        text.contains("postgres://me:***@127.0.0.1:1/db") && !text.contains("hunter2"),
        "{text}"
    );
}

#[test]
fn a_store_path_that_cannot_be_created_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let loc = Location::Sqlite(file.join("sub/history.db"));
    let text = format!("{:#}", open(&loc).err().unwrap());
    assert!(text.contains(&loc.shown()), "{text}");
}

#[test]
fn default_location_is_the_project_root() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let data = root.join("data/versus");
    let user = Outside::UserData(Some(data.clone()));
    assert_eq!(
        Location::resolve(None, &sub, &Outside::Here),
        Location::Sqlite(root.join("a/b/.versus/history.db"))
    );
    // Outside git, exec's store goes to the user's data folder...
    assert_eq!(
        Location::resolve(None, &sub, &user),
        Location::Sqlite(data.join("history.db"))
    );
    assert!(Location::resolve(None, &sub, &user).is_user_data(&user));
    // ...unless the folder already has one.
    std::fs::create_dir_all(sub.join(".versus")).unwrap();
    std::fs::write(sub.join(".versus/history.db"), "").unwrap();
    assert_eq!(
        Location::resolve(None, &sub, &user),
        Location::Sqlite(root.join("a/b/.versus/history.db"))
    );
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    for outside in [Outside::Here, user.clone()] {
        assert_eq!(
            Location::resolve(None, &sub, &outside),
            Location::Sqlite(root.join(".versus/history.db"))
        );
    }
    assert_eq!(
        Location::resolve(Some("postgresql://h/db"), &sub, &user),
        Location::Postgres("postgresql://h/db".into())
    );
}
