//! The SQL layer on PostgreSQL (the synchronous `postgres` crate; docs/scaling.md says why).
//!
//! The store's statements are written once, in words both databases share; what PostgreSQL
//! reads differently is changed here, in [`translate`], once per statement and connection:
//!
//! - placeholders: SQLite's `?N` is PostgreSQL's `$N`;
//! - `INDEXED BY <index>`, SQLite's hint to its planner, has no meaning here and goes.
//!
//! The rest is in the PostgreSQL migrations (`migrations/postgres/`): integers are `BIGINT`
//! (a snowflake bit for bit, as in SQLite), booleans are stored as 0 and 1 like SQLite's, and
//! SQLite's `instr()` is a function of the schema.
//!
//! Parameters take the type the server infers for their placeholder (an `INTEGER` column's
//! placeholder is an `int4`): [`Value`]'s `ToSql` converts to it, refusing what does not fit.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use bytes::BytesMut;
use postgres::Statement;
use postgres::types::{IsNull, ToSql, Type};

use super::{ColumnError, Params, Row, RowInner, Value};
use crate::store::{Result, StoreError};

/// A connection and the statements it has prepared, keyed by the store's text of them.
pub struct Session {
    client: Client,
    statements: HashMap<String, Statement>,
}

/// A `postgres::Client`, closed on a thread of its own when dropped. The client owns a small
/// tokio runtime, and a runtime dropped on an async thread (the bot's) panics; the store
/// cannot know where its last connection goes. Rare: a pool overflowing after a burst, a
/// store closing, the bot's lock at its exit.
pub struct Client(Option<postgres::Client>);

impl Client {
    pub fn new(client: postgres::Client) -> Client {
        Client(Some(client))
    }
}

impl std::ops::Deref for Client {
    type Target = postgres::Client;

    fn deref(&self) -> &postgres::Client {
        self.0.as_ref().expect("present until drop")
    }
}

impl std::ops::DerefMut for Client {
    fn deref_mut(&mut self) -> &mut postgres::Client {
        self.0.as_mut().expect("present until drop")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(client) = self.0.take() {
            // Should no thread be had, the connection closes with the process.
            let _ = std::thread::Builder::new()
                .name("jackal-pg-close".into())
                .spawn(move || drop(client));
        }
    }
}

/// Prepared statements kept per connection (as SQLite's cache: the store has about 130).
const STATEMENT_CACHE: usize = 256;

impl Session {
    pub fn new(client: postgres::Client) -> Session {
        Session {
            client: Client::new(client),
            statements: HashMap::new(),
        }
    }

    pub fn client(&mut self) -> &mut postgres::Client {
        &mut self.client
    }

    /// Whether the server went away (the connection is then dropped, not pooled).
    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    fn statement(&mut self, sql: &str) -> Result<Statement> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(&translate(sql))?;
        if self.statements.len() >= STATEMENT_CACHE {
            self.statements.clear();
        }
        self.statements.insert(sql.to_string(), statement.clone());
        Ok(statement)
    }
}

/// `sql` as PostgreSQL reads it (see the module's comment). Quoted text and names are left
/// as they are.
pub fn translate(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == q {
                    quote = None;
                }
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) => out.push('$'),
            None => out.push(c),
        }
    }
    drop_indexed_by(&out)
}

/// Removes `INDEXED BY <name>` (outside quotes, which no statement of the store has there).
fn drop_indexed_by(sql: &str) -> String {
    const HINT: &str = "INDEXED BY ";
    let Some(at) = sql.find(HINT) else {
        return sql.to_string();
    };
    let rest = &sql[at + HINT.len()..];
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let tail = rest[name_end..].trim_start();
    format!("{}{}", &sql[..at], tail)
}

fn bind<'a>(params: Params<'a>) -> Vec<Value<'a>> {
    params.iter().map(|p| p.to_value()).collect()
}

fn refs<'v>(values: &'v [Value<'v>]) -> Vec<&'v (dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

pub(super) fn execute(session: &RefCell<Session>, sql: &str, params: Params) -> Result<usize> {
    let values = bind(params);
    let mut session = session.borrow_mut();
    let statement = session.statement(sql)?;
    Ok(session.client.execute(&statement, &refs(&values))? as usize)
}

pub(super) fn query_opt<T>(
    session: &RefCell<Session>,
    sql: &str,
    params: Params,
    read: impl FnOnce(&Row) -> Result<T>,
) -> Result<Option<T>> {
    let rows = query(session, sql, params)?;
    match rows.first() {
        Some(row) => read(&Row {
            inner: RowInner::Postgres(row),
        })
        .map(Some),
        None => Ok(None),
    }
}

pub(super) fn query_many<T>(
    session: &RefCell<Session>,
    sql: &str,
    params: Params,
    mut read: impl FnMut(&Row) -> Result<T>,
) -> Result<Vec<T>> {
    query(session, sql, params)?
        .iter()
        .map(|row| {
            read(&Row {
                inner: RowInner::Postgres(row),
            })
        })
        .collect()
}

/// Every row of a query, read before the session is lent again (a row reader may not
/// query, but the rows outlive the borrow).
fn query(session: &RefCell<Session>, sql: &str, params: Params) -> Result<Vec<postgres::Row>> {
    let values = bind(params);
    let mut session = session.borrow_mut();
    let statement = session.statement(sql)?;
    Ok(session.client.query(&statement, &refs(&values))?)
}

/// A column's value, as one of the five kinds the store reads. The store's schema uses only
/// the types below; another (a `numeric` from a `SUM` of `BIGINT`s) is named in the error,
/// to be cast in the query.
pub(super) fn column(row: &postgres::Row, index: usize) -> Result<Value<'_>> {
    let ty = row
        .columns()
        .get(index)
        .ok_or(StoreError::Column {
            index,
            why: ColumnError::Invalid("no such column".into()),
        })?
        .type_()
        .clone();
    let value = match ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(index)?.map(Value::Int),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(index)?
            .map(|i| Value::Int(i.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(index)?
            .map(|i| Value::Int(i.into())),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(index)?
            .map(|b| Value::Int(b.into())),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(index)?.map(Value::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(index)?
            .map(|f| Value::Real(f.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => row
            .try_get::<_, Option<&str>>(index)?
            .map(|s| Value::Text(Cow::Borrowed(s))),
        Type::BYTEA => row
            .try_get::<_, Option<&[u8]>>(index)?
            .map(|b| Value::Blob(Cow::Borrowed(b))),
        other => {
            return Err(StoreError::Column {
                index,
                why: ColumnError::Invalid(format!("a column of type {other} is not read")),
            });
        }
    };
    Ok(value.unwrap_or(Value::Null))
}

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl ToSql for Value<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> std::result::Result<IsNull, BoxError> {
        let mismatch =
            || -> BoxError { format!("{} given for a parameter of type {ty}", self.kind()).into() };
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => Err(mismatch()),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT8 => f.to_sql(ty, out),
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                _ => Err(mismatch()),
            },
            Value::Text(text) => match *ty {
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    text.as_ref().to_sql(ty, out)
                }
                _ => Err(mismatch()),
            },
            Value::Blob(bytes) => match *ty {
                Type::BYTEA => bytes.as_ref().to_sql(ty, out),
                _ => Err(mismatch()),
            },
        }
    }

    /// Any type: [`ToSql::to_sql`] converts to the one inferred, or says why it cannot.
    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_planner_hints_are_translated_outside_quotes() {
        assert_eq!(
            translate("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND d > ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND d > $12"
        );
        assert_eq!(
            translate("SELECT id FROM outbox INDEXED BY outbox_unsent WHERE id > ?1"),
            "SELECT id FROM outbox WHERE id > $1"
        );
        assert_eq!(translate("SELECT '?' || \"?1\""), "SELECT '?' || \"?1\"");
    }
}
