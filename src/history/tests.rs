//! The store on SQLite always, and on PostgreSQL when `VERSUS_TEST_POSTGRES_URL`
//! names a server (scripts/ci/postgres.sh starts one): recording and reading
//! back, migrations from an empty and from an older schema, a newer schema
//! refused, concurrent writers losing nothing, and export giving back the
//! recorded document byte for byte.

use std::path::Path;

use super::backend::Backend;
use super::*;
use crate::results::{self, Results};

fn fixture() -> (Results, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
    (results::read(&path).unwrap(), std::fs::read_to_string(&path).unwrap())
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
    let a = s.record(&r, &text, &meta()).unwrap();
    let b = s.record(&r, &text, &meta()).unwrap();
    assert!(b > a);
    assert_eq!(s.document(a).unwrap(), text, "export gives back the recorded bytes");
    let runs = s.list(&Filter::default(), 10).unwrap();
    assert_eq!(runs.iter().map(|r| r.id).collect::<Vec<_>>(), [b, a]);
    assert_eq!(runs[0].cells, r.cells.len() as i64);
    assert_eq!(runs[0].git.branch.as_deref(), Some("main"));
    let machine = store::machine_of(&r.environment);
    assert_eq!(s.last_run(&r.suite.name, &machine, None).unwrap(), Some(b));
    assert_eq!(s.last_run(&r.suite.name, "elsewhere", None).unwrap(), None);
    // An interrupted run is kept but is not what "change since" compares with.
    let mut cut = r.clone();
    cut.status = crate::results::RunStatus::Interrupted;
    let c = s.record(&cut, &text, &meta()).unwrap();
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
    assert_eq!(s.document(a).unwrap(), text);
    let rows = s
        .trend_rows(&r.suite.name, &machine, crate::results::Metric::Wall)
        .unwrap();
    assert_eq!(rows.len(), r.cells.len());
}

fn migrates_from_the_previous_schema(fresh: &Fresh) {
    let loc = fresh();
    let (r, text) = fixture();
    let mut db = raw(&loc);
    schema::migrate(db.as_mut(), 1, "test").unwrap();
    let mut s = Store::unmigrated(db, "test".into());
    assert_eq!(s.schema_version().unwrap(), 1);
    let id = s.record(&r, &text, &meta()).unwrap();
    drop(s);
    let mut s = open(&loc).unwrap();
    assert_eq!(s.schema_version().unwrap(), schema::VERSION);
    assert_eq!(s.document(id).unwrap(), text);
    s.save_baseline("kept", id).unwrap();
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
                    s.record(&r, &text, &meta()).unwrap();
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
    ("records_and_reads_back", records_and_reads_back),
    ("migrates_from_the_previous_schema", migrates_from_the_previous_schema),
    ("refuses_a_newer_schema", refuses_a_newer_schema),
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
