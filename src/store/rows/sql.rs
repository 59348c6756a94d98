//! Conversions between the store's values and columns: the one place that knows how each is
//! written in a column, whatever the backend.

use super::super::StoreError;
use super::super::sql::{ColumnError, FromValue, ToValue, Value, text_column};

// Discord snowflakes and seeds are u64; SQL integers (SQLite's, PostgreSQL's BIGINT) are i64.
// Both fit bit for bit.
pub(super) fn to_sql(v: u64) -> i64 {
    v as i64
}

pub(super) fn from_sql(v: i64) -> u64 {
    v as u64
}

/// Votes (the teams that agreed, or refused) are kept in a text column as a JSON list of team
/// numbers.
pub(super) fn teams_text(teams: &[crate::engine::Team]) -> String {
    serde_json::to_string(teams).expect("a list of numbers")
}

/// The teams [`teams_text`] wrote; `what` names the column in the complaint of a damaged one.
pub(super) fn teams_of_text(
    text: &str,
    what: &str,
) -> super::super::Result<Vec<crate::engine::Team>> {
    serde_json::from_str(text).map_err(|_| StoreError::Corrupt(format!("{what} `{text}`")))
}

/// A team is stored as its number (1–4; the seats table checks it); any other number read
/// back is a damaged row.
impl ToValue for crate::engine::Team {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(self.number()))
    }
}

impl FromValue for crate::engine::Team {
    fn from_value(value: Value<'_>) -> Result<Self, ColumnError> {
        let number = i64::from_value(value)?;
        u8::try_from(number)
            .ok()
            .and_then(crate::engine::Team::new)
            .ok_or(ColumnError::Range(number))
    }
}

/// A game's number is its rowid; a number of zero or below read back is a damaged row.
impl ToValue for crate::id::GameId {
    fn to_value(&self) -> Value<'_> {
        Value::Int(self.get())
    }
}

impl FromValue for crate::id::GameId {
    fn from_value(value: Value<'_>) -> Result<Self, ColumnError> {
        let number = i64::from_value(value)?;
        crate::id::GameId::new(number).ok_or(ColumnError::Range(number))
    }
}

/// Snowflakes are u64 and SQL integers i64: each is stored bit for bit in the other.
macro_rules! snowflake_column {
    ($($name:ident),*) => {$(
        impl ToValue for crate::id::$name {
            fn to_value(&self) -> Value<'_> {
                Value::Int(to_sql(self.get()))
            }
        }

        impl FromValue for crate::id::$name {
            fn from_value(value: Value<'_>) -> Result<Self, ColumnError> {
                Ok(Self::new(from_sql(i64::from_value(value)?)))
            }
        }
    )*};
}

snowflake_column!(UserId, ChannelId, GuildId, MessageId);

/// A language is stored as its code (`en`, `ru`). A code this version does not speak (written
/// by a newer one) reads as the default language rather than making the row unreadable.
impl ToValue for crate::words::Lang {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self.code().into())
    }
}

impl FromValue for crate::words::Lang {
    fn from_value(value: Value<'_>) -> Result<Self, ColumnError> {
        text_column(value, |code| {
            Ok(crate::words::Lang::parse(code).unwrap_or_default())
        })
    }
}
