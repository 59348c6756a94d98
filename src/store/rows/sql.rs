//! Conversions between the store's values and SQLite's: the one place that knows how each
//! is written in a column.

use rusqlite::types::{FromSqlError, ValueRef};

use super::super::Result;

/// Reads a text column through `parse` (for the enums stored as words).
pub(super) fn text_column<T>(
    value: ValueRef<'_>,
    parse: fn(&str) -> Result<T>,
) -> rusqlite::types::FromSqlResult<T> {
    parse(value.as_str()?).map_err(|e| FromSqlError::Other(Box::new(e)))
}

// Discord snowflakes and seeds are u64; SQLite integers are i64. Both fit bit for bit.
pub(super) fn to_sql(v: u64) -> i64 {
    v as i64
}

pub(super) fn from_sql(v: i64) -> u64 {
    v as u64
}
