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

/// A team is stored as its number (1–4; the seats table checks it); any other number read
/// back is a damaged row.
impl rusqlite::types::ToSql for crate::engine::Team {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(i64::from(self.number())))
    }
}

impl rusqlite::types::FromSql for crate::engine::Team {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let number = value.as_i64()?;
        u8::try_from(number)
            .ok()
            .and_then(crate::engine::Team::new)
            .ok_or(FromSqlError::OutOfRange(number))
    }
}

/// A game's number is its rowid; a number of zero or below read back is a damaged row.
impl rusqlite::types::ToSql for crate::id::GameId {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.get()))
    }
}

impl rusqlite::types::FromSql for crate::id::GameId {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let number = value.as_i64()?;
        crate::id::GameId::new(number).ok_or(FromSqlError::OutOfRange(number))
    }
}

/// Snowflakes are u64 and SQLite integers i64: each is stored bit for bit in the other.
macro_rules! snowflake_column {
    ($($name:ident),*) => {$(
        impl rusqlite::types::ToSql for crate::id::$name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(rusqlite::types::ToSqlOutput::from(to_sql(self.get())))
            }
        }

        impl rusqlite::types::FromSql for crate::id::$name {
            fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
                Ok(Self::new(from_sql(value.as_i64()?)))
            }
        }
    )*};
}

snowflake_column!(UserId, ChannelId, GuildId, MessageId);

/// A language is stored as its code (`en`, `ru`). A code this version does not speak (written
/// by a newer one) reads as the default language rather than making the row unreadable.
impl rusqlite::types::ToSql for crate::words::Lang {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.code()))
    }
}

impl rusqlite::types::FromSql for crate::words::Lang {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        Ok(crate::words::Lang::parse(value.as_str()?).unwrap_or_default())
    }
}
