//! The store's own small SQL layer: every query of `rows` is written once, against this, and
//! each backend (SQLite here, PostgreSQL beside it) runs it on its own connection.
//!
//! Three calls — [`Link::execute`], [`Link::query_opt`] / [`Link::query_one`],
//! [`Link::query_many`] — with typed parameters ([`ToValue`]) and typed column reads
//! ([`Row::get`] through [`FromValue`]). Values cross the boundary as one of five kinds
//! ([`Value`]), SQLite's own storage classes: every column the store keeps is one of them, so
//! a backend only converts between those five and its own types.
//!
//! Queries are written in the dialect both backends understand (`?N` placeholders, `ON
//! CONFLICT … DO UPDATE`, `RETURNING`); what a backend must change in a statement's text is
//! changed by that backend's translation, in one place ([`sqlite`] needs none).

pub mod postgres;
mod sqlite;

use std::borrow::Cow;
use std::cell::RefCell;

use super::{Result, StoreError};

/// A value bound to a placeholder or read from a column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(Cow<'a, str>),
    Blob(Cow<'a, [u8]>),
}

impl Value<'_> {
    /// The kind's name, for errors.
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Int(_) => "an integer",
            Value::Real(_) => "a real",
            Value::Text(_) => "text",
            Value::Blob(_) => "a blob",
        }
    }
}

/// Why a column's value is not the type asked for.
#[derive(Debug, thiserror::Error)]
pub enum ColumnError {
    #[error("{expected} was expected, {found} was found")]
    Kind {
        expected: &'static str,
        found: &'static str,
    },
    #[error("{0} is out of range")]
    Range(i64),
    #[error("{0}")]
    Invalid(String),
}

impl ColumnError {
    fn kind(expected: &'static str, found: &Value) -> ColumnError {
        ColumnError::Kind {
            expected,
            found: found.kind(),
        }
    }
}

/// A parameter of a query.
pub trait ToValue {
    fn to_value(&self) -> Value<'_>;
}

/// A column's value read as a Rust value.
pub trait FromValue: Sized {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError>;
}

/// The parameters of a query, `?1` first: `params![game, ply]`.
macro_rules! params {
    ($($p:expr),* $(,)?) => {
        &[$(&$p as &dyn $crate::store::sql::ToValue),*] as &[&dyn $crate::store::sql::ToValue]
    };
}
pub(crate) use params;

/// Parameters, as a slice (see [`params!`]).
pub type Params<'a> = &'a [&'a dyn ToValue];

/// One row of a result, read column by column (the first is 0).
pub struct Row<'r> {
    inner: RowInner<'r>,
}

enum RowInner<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    Postgres(&'r ::postgres::Row),
}

impl Row<'_> {
    /// Column `index` as a `T`; a value of another kind (or out of `T`'s range) is an error
    /// naming the column.
    pub fn get<T: FromValue>(&self, index: usize) -> Result<T> {
        let value = match &self.inner {
            RowInner::Sqlite(row) => sqlite::column(row, index)?,
            RowInner::Postgres(row) => postgres::column(row, index)?,
        };
        T::from_value(value).map_err(|why| StoreError::Column { index, why })
    }
}

/// A connection (or a transaction on one) to run queries on, whatever the backend.
#[derive(Clone, Copy)]
pub enum Link<'c> {
    Sqlite(&'c rusqlite::Connection),
    Postgres(&'c RefCell<postgres::Session>),
}

impl Link<'_> {
    /// Runs a statement that returns no rows: how many rows it changed.
    pub fn execute(self, sql: &str, params: Params) -> Result<usize> {
        match self {
            Link::Sqlite(conn) => sqlite::execute(conn, sql, params),
            Link::Postgres(session) => postgres::execute(session, sql, params),
        }
    }

    /// The first row of a query, if it has any.
    pub fn query_opt<T>(
        self,
        sql: &str,
        params: Params,
        read: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        match self {
            Link::Sqlite(conn) => sqlite::query_opt(conn, sql, params, read),
            Link::Postgres(session) => postgres::query_opt(session, sql, params, read),
        }
    }

    /// The first row of a query that always has one (an aggregate, a row known to exist).
    pub fn query_one<T>(
        self,
        sql: &str,
        params: Params,
        read: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, params, read)?.ok_or(StoreError::NoRow)
    }

    /// Every row of a query, in its order.
    pub fn query_many<T>(
        self,
        sql: &str,
        params: Params,
        read: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        match self {
            Link::Sqlite(conn) => sqlite::query_many(conn, sql, params, read),
            Link::Postgres(session) => postgres::query_many(session, sql, params, read),
        }
    }
}

// Parameters.

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value<'_> {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value<'_> {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}

int_param!(i64, i32, u32, u16, u8);

/// Stored as 0 or 1, as SQLite stores a boolean.
impl ToValue for bool {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value<'_> {
        Value::Text(Cow::Borrowed(self))
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value<'_> {
        Value::Text(Cow::Borrowed(self))
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value<'_> {
        Value::Blob(Cow::Borrowed(self))
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value<'_> {
        Value::Blob(Cow::Borrowed(self))
    }
}

// Columns. The conversions are SQLite's (rusqlite's `FromSql`), which the rows were first
// written against: integers read as reals, text as bytes, nothing else converted.

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

impl FromValue for i64 {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        match value {
            Value::Int(i) => Ok(i),
            other => Err(ColumnError::kind("an integer", &other)),
        }
    }
}

macro_rules! narrow_column {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
                let wide = i64::from_value(value)?;
                <$t>::try_from(wide).map_err(|_| ColumnError::Range(wide))
            }
        }
    )*};
}

narrow_column!(i32, u32, u16, u8);

impl FromValue for bool {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        Ok(i64::from_value(value)? != 0)
    }
}

impl FromValue for f64 {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        match value {
            Value::Real(f) => Ok(f),
            Value::Int(i) => Ok(i as f64),
            other => Err(ColumnError::kind("a real", &other)),
        }
    }
}

impl FromValue for String {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        match value {
            Value::Text(text) => Ok(text.into_owned()),
            other => Err(ColumnError::kind("text", &other)),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        match value {
            Value::Blob(bytes) => Ok(bytes.into_owned()),
            Value::Text(text) => Ok(text.into_owned().into_bytes()),
            other => Err(ColumnError::kind("a blob", &other)),
        }
    }
}

/// Reads a text column through `parse` (for the enums stored as words).
pub fn text_column<T>(
    value: Value<'_>,
    parse: impl FnOnce(&str) -> Result<T>,
) -> std::result::Result<T, ColumnError> {
    match value {
        Value::Text(text) => parse(&text).map_err(|e| ColumnError::Invalid(e.to_string())),
        other => Err(ColumnError::kind("text", &other)),
    }
}
