//! The team store: the same tables on a PostgreSQL server, so many machines
//! write into one history. Statements arrive in SQLite's spelling and are
//! translated here (`?1` → `$1`); every integer column is BIGINT and every
//! real DOUBLE PRECISION, so parameters map to one Rust type each.
//! Passwords never appear in messages: the URL is shown with them hidden
//! (`base::redact`). A URL or keyword/value string without a password takes
//! it from `PGPASSWORD`, as libpq does, so it need not be on a command line.
//! TLS follows libpq's `sslmode` (default `prefer`) and `sslrootcert`, with
//! rustls: see `tls`.
//!
//! The server may be a round trip away, so every statement is sent with its
//! parameters' types (`query_typed`): parse, bind and execute go out
//! together, one round trip, with no statement prepared beforehand. Many
//! rows go in as one statement over arrays (`INSERT … SELECT * FROM unnest(…)`).

use std::time::Duration;

use anyhow::{Context, Result, bail};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{Client, Config};

use super::backend::{Backend, Column, Dialect, EachRow, Param, Value};

pub(crate) struct Postgres {
    client: Client,
    url: String,
    statements: u64,
}

/// The libpq keywords a keyword/value connection string can start with.
const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "options",
    "application_name",
    "connect_timeout",
    "sslmode",
    "sslcert",
    "sslkey",
    "sslrootcert",
    "target_session_attrs",
    "channel_binding",
    "keepalives",
    "load_balance_hosts",
];

/// Whether `text` is a libpq keyword/value connection string (`host=h dbname=d`).
pub(crate) fn is_keywords(text: &str) -> bool {
    text.split_once('=')
        .is_some_and(|(key, _)| KEYWORDS.contains(&key.trim()))
}

/// The connection settings of `url` (`shown`, the same with passwords
/// hidden, names it), sslmode and sslrootcert taken out (`tls::settings`);
/// the password from `password` when it names none.
fn config(url: &str, shown: &str, password: Option<String>) -> Result<Config> {
    let mut config: Config = url
        .parse()
        .with_context(|| format!("history store {shown}: not a valid PostgreSQL URL or connection string"))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    if let Some(p) = password.filter(|_| config.get_password().is_none()) {
        config.password(p);
    }
    Ok(config)
}

impl Postgres {
    pub(crate) fn connect(url: &str) -> Result<Postgres> {
        let shown = crate::base::redact::word(url).into_owned();
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let tls = super::tls::settings(url, &shown, env)?;
        let mut config = config(&tls.rest, &shown, env("PGPASSWORD"))?;
        let client = super::tls::connect(&mut config, &tls, &shown)?;
        Ok(Postgres {
            client,
            url: shown,
            statements: 0,
        })
    }
}

/// `?1` → `$1`: the statements are written in SQLite's spelling.
fn translate(sql: &str) -> String {
    sql.replace('?', "$")
}

/// The bytes of each blob parameter, by reference (a run's document is not copied).
fn blobs(params: &[Param]) -> Vec<Option<&[u8]>> {
    params
        .iter()
        .map(|p| match p {
            Param::Blob(Some(b)) => Some(b.as_slice()),
            _ => None,
        })
        .collect()
}

/// Each parameter by reference, with its type, as `query_typed` wants it
/// (`blobs` holds the blobs' bytes).
fn typed<'a>(params: &'a [Param], blobs: &'a [Option<&'a [u8]>]) -> Vec<(&'a (dyn ToSql + Sync), Type)> {
    params
        .iter()
        .zip(blobs)
        .map(|(p, b)| -> (&(dyn ToSql + Sync), Type) {
            match p {
                Param::Int(v) => (v, Type::INT8),
                Param::Real(v) => (v, Type::FLOAT8),
                Param::Text(v) => (v, Type::TEXT),
                Param::Blob(_) => (b, Type::BYTEA),
            }
        })
        .collect()
}

fn typed_column(c: &Column) -> (&(dyn ToSql + Sync), Type, &'static str) {
    match c {
        Column::Int(v) => (v, Type::INT8_ARRAY, "bigint[]"),
        Column::Real(v) => (v, Type::FLOAT8_ARRAY, "double precision[]"),
        Column::Text(v) => (v, Type::TEXT_ARRAY, "text[]"),
    }
}

fn value(row: &postgres::Row, i: usize) -> Result<Value> {
    let ty = row.columns()[i].type_();
    let v = if *ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
    } else if *ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)?.map(|v| Value::Int(v.into()))
    } else if *ty == Type::FLOAT8 {
        row.try_get::<_, Option<f64>>(i)?.map(Value::Real)
    } else if [Type::TEXT, Type::VARCHAR, Type::NAME].contains(ty) {
        row.try_get::<_, Option<String>>(i)?.map(Value::Text)
    } else if *ty == Type::BYTEA {
        row.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Blob)
    } else {
        bail!("unexpected column type {ty} in the history store");
    };
    Ok(v.unwrap_or(Value::Null))
}

impl Postgres {
    /// Sends one statement (one round trip) and hands each row to `each`;
    /// returns the rows it changed.
    fn send(
        &mut self,
        sql: &str,
        params: Vec<(&(dyn ToSql + Sync), Type)>,
        mut each: Option<&mut EachRow>,
    ) -> Result<u64> {
        self.statements += 1;
        let url = &self.url;
        let mut rows = self
            .client
            .query_typed_raw(sql, params)
            .with_context(|| format!("history store {url}"))?;
        let mut r = Vec::new();
        while let Some(row) = rows.next().with_context(|| format!("history store {url}"))? {
            // A statement run for its effect may still return a row (of `void`).
            let Some(each) = each.as_mut() else { continue };
            r.clear();
            for i in 0..row.len() {
                r.push(value(&row, i)?);
            }
            each(&r)?;
        }
        Ok(rows.rows_affected().unwrap_or(0))
    }
}

impl Backend for Postgres {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        self.statements += 1;
        self.client
            .batch_execute(sql)
            .with_context(|| format!("history store {}", self.url))
    }

    fn execute(&mut self, sql: &str, params: &[Param]) -> Result<u64> {
        let blobs = blobs(params);
        self.send(&translate(sql), typed(params, &blobs), None)
    }

    fn query_each(&mut self, sql: &str, params: &[Param], each: &mut EachRow) -> Result<()> {
        let blobs = blobs(params);
        self.send(&translate(sql), typed(params, &blobs), Some(each))
            .map(|_| ())
    }

    fn insert_many(&mut self, head: &str, tail: &str, columns: &[Column]) -> Result<u64> {
        let typed: Vec<_> = columns.iter().map(typed_column).collect();
        let arrays: Vec<String> = typed
            .iter()
            .enumerate()
            .map(|(i, (_, _, cast))| format!("${}::{cast}", i + 1))
            .collect();
        let sql = format!("{head} SELECT * FROM unnest({}) {tail}", arrays.join(", "));
        let params = typed.into_iter().map(|(v, t, _)| (v, t)).collect();
        self.send(&sql, params, None)
    }

    fn begin(&mut self) -> Result<()> {
        self.batch("BEGIN")
    }

    fn commit(&mut self) -> Result<()> {
        self.batch("COMMIT")
    }

    fn rollback(&mut self) -> Result<()> {
        self.batch("ROLLBACK")
    }

    fn statements(&self) -> u64 {
        self.statements
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_translated() {
        assert_eq!(translate("a = ?1 and b = ?12"), "a = $1 and b = $12");
    }

    #[test]
    fn a_password_comes_from_the_url_else_from_pgpassword() {
        let given = |url: &str, env: Option<&str>| {
            config(url, url, env.map(String::from))
                .unwrap()
                .get_password()
                .map(|p| String::from_utf8_lossy(p).into_owned())
        };
        assert_eq!(given("postgres://u:mine@h/db", Some("env")).as_deref(), Some("mine"));
        assert_eq!(
            given("postgres://u@h/db?password=mine", Some("env")).as_deref(),
            Some("mine")
        );
        assert_eq!(given("postgres://u@h/db", Some("env")).as_deref(), Some("env"));
        assert_eq!(given("host=h user=u dbname=d", Some("env")).as_deref(), Some("env"));
        assert_eq!(given("postgres://u@h/db", None), None);
    }

    #[test]
    fn a_keyword_value_string_is_told_from_a_path() {
        assert!(is_keywords("host=h port=5 dbname=d"));
        assert!(is_keywords("dbname = d"));
        assert!(!is_keywords("results/history.db"));
        assert!(!is_keywords("my=store.db"));
    }
}
