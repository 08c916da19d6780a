//! The team store: the same tables on a PostgreSQL server, so many machines
//! write into one history. Statements arrive in SQLite's spelling and are
//! translated here (`?1` → `$1`); every integer column is BIGINT and every
//! real DOUBLE PRECISION, so parameters map to one Rust type each.
//! Passwords never appear in messages: the URL is shown redacted.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use postgres::types::{ToSql, Type};
use postgres::{Client, Config, NoTls};

use super::backend::{Backend, Dialect, Param, Row, Value};

pub struct Postgres {
    client: Client,
    url: String,
}

/// The URL with any password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

impl Postgres {
    pub fn connect(url: &str) -> Result<Postgres> {
        let shown = redact(url);
        let mut config: Config = url
            .parse()
            .with_context(|| format!("history store {shown}: not a valid PostgreSQL URL"))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        let client = config
            .connect(NoTls)
            .with_context(|| format!("history store {shown}: cannot connect to the PostgreSQL server"))?;
        Ok(Postgres { client, url: shown })
    }
}

/// `?1` → `$1`: the statements are written in SQLite's spelling.
fn translate(sql: &str) -> String {
    sql.replace('?', "$")
}

fn bind(params: &[Param]) -> Vec<Box<dyn ToSql + Sync>> {
    params
        .iter()
        .map(|p| -> Box<dyn ToSql + Sync> {
            match p {
                Param::Int(v) => Box::new(*v),
                Param::Real(v) => Box::new(*v),
                Param::Text(v) => Box::new(v.clone()),
            }
        })
        .collect()
}

fn value(row: &postgres::Row, i: usize) -> Result<Value> {
    let ty = row.columns()[i].type_().clone();
    let v = if ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
    } else if ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)?.map(|v| Value::Int(v.into()))
    } else if ty == Type::FLOAT8 {
        row.try_get::<_, Option<f64>>(i)?.map(Value::Real)
    } else if ty == Type::TEXT || ty == Type::VARCHAR || ty == Type::NAME {
        row.try_get::<_, Option<String>>(i)?.map(Value::Text)
    } else {
        bail!("unexpected column type {ty} in the history store");
    };
    Ok(v.unwrap_or(Value::Null))
}

impl Backend for Postgres {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        self.client
            .batch_execute(sql)
            .with_context(|| format!("history store {}", self.url))
    }

    fn execute(&mut self, sql: &str, params: &[Param]) -> Result<u64> {
        let boxed = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = boxed.iter().map(|b| b.as_ref()).collect();
        self.client
            .execute(translate(sql).as_str(), &refs)
            .with_context(|| format!("history store {}", self.url))
    }

    fn query(&mut self, sql: &str, params: &[Param]) -> Result<Vec<Row>> {
        let boxed = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = boxed.iter().map(|b| b.as_ref()).collect();
        let rows = self
            .client
            .query(translate(sql).as_str(), &refs)
            .with_context(|| format!("history store {}", self.url))?;
        rows.iter()
            .map(|r| (0..r.len()).map(|i| value(r, i)).collect::<Result<Row>>())
            .collect()
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(redact("postgres://u:secret@h:5/db"), "postgres://u:***@h:5/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
        assert_eq!(translate("a = ?1 and b = ?12"), "a = $1 and b = $12");
    }
}
