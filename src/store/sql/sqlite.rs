//! The SQL layer on SQLite (rusqlite): statements run as written, each prepared once per
//! connection (`prepare_cached`: parsing an action's dozen statements used to cost as much as
//! running them, see benches/service.rs).

use std::borrow::Cow;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, params_from_iter};

use super::{Params, Row, RowInner, Value};
use crate::store::Result;

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(text) => ValueRef::Text(text.as_bytes()),
            Value::Blob(bytes) => ValueRef::Blob(bytes),
        }))
    }
}

fn bind<'a>(params: Params<'a>) -> Vec<Value<'a>> {
    params.iter().map(|p| p.to_value()).collect()
}

pub(super) fn execute(conn: &Connection, sql: &str, params: Params) -> Result<usize> {
    let values = bind(params);
    Ok(conn
        .prepare_cached(sql)?
        .execute(params_from_iter(values.iter()))?)
}

pub(super) fn query_opt<T>(
    conn: &Connection,
    sql: &str,
    params: Params,
    read: impl FnOnce(&Row) -> Result<T>,
) -> Result<Option<T>> {
    let values = bind(params);
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params_from_iter(values.iter()))?;
    match rows.next()? {
        Some(row) => read(&Row {
            inner: RowInner::Sqlite(row),
        })
        .map(Some),
        None => Ok(None),
    }
}

pub(super) fn query_many<T>(
    conn: &Connection,
    sql: &str,
    params: Params,
    mut read: impl FnMut(&Row) -> Result<T>,
) -> Result<Vec<T>> {
    let values = bind(params);
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params_from_iter(values.iter()))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read(&Row {
            inner: RowInner::Sqlite(row),
        })?);
    }
    Ok(out)
}

/// A column's value. Text that is not UTF-8 (written by another program) is handed on as
/// bytes: it reads as a blob, never as a string, as rusqlite's own conversions do.
pub(super) fn column<'r>(row: &'r rusqlite::Row, index: usize) -> Result<Value<'r>> {
    Ok(match row.get_ref(index)? {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Real(f),
        ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => Value::Text(Cow::Borrowed(text)),
            Err(_) => Value::Blob(Cow::Borrowed(bytes)),
        },
        ValueRef::Blob(bytes) => Value::Blob(Cow::Borrowed(bytes)),
    })
}

/// The store's typed values on a raw SQLite connection, for tests that damage or inspect a
/// file as someone with it could (`Conn::raw`): bound and read as the store itself does.
#[cfg(feature = "test-support")]
mod raw {
    use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

    use super::super::{FromValue, ToValue, Value};

    fn owned(value: Value<'_>) -> ToSqlOutput<'static> {
        ToSqlOutput::Owned(match value {
            Value::Null => rusqlite::types::Value::Null,
            Value::Int(i) => rusqlite::types::Value::Integer(i),
            Value::Real(f) => rusqlite::types::Value::Real(f),
            Value::Text(text) => rusqlite::types::Value::Text(text.into_owned()),
            Value::Blob(bytes) => rusqlite::types::Value::Blob(bytes.into_owned()),
        })
    }

    fn read<T: FromValue>(value: ValueRef<'_>) -> FromSqlResult<T> {
        let value = match value {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Int(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(bytes) => Value::Text(String::from_utf8_lossy(bytes)),
            ValueRef::Blob(bytes) => Value::Blob(bytes.into()),
        };
        T::from_value(value).map_err(|e| FromSqlError::Other(Box::new(e)))
    }

    macro_rules! raw_column {
        ($($t:ty),*) => {$(
            impl ToSql for $t {
                fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                    Ok(owned(self.to_value()))
                }
            }

            impl FromSql for $t {
                fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                    read(value)
                }
            }
        )*};
    }

    raw_column!(
        crate::id::GameId,
        crate::id::UserId,
        crate::id::ChannelId,
        crate::id::GuildId,
        crate::id::MessageId,
        crate::engine::Team
    );
}
