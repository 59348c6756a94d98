//! The ids that cross the layers: a game's number, and Discord's users, channels, guilds and
//! messages.
//! Each is its own type, so a channel cannot be passed where a user is meant and a game
//! number is never zero or negative once it is one. The store writes and reads them
//! (`store/rows/sql.rs`); Discord's edge converts serenity's ids into these and back.

use std::fmt;
use std::num::NonZeroI64;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A game's number, as players see it after `#`: the games table's rowid, always positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i64")]
pub struct GameId(NonZeroI64);

impl GameId {
    /// The game numbered `n`; `None` for a number no game can have (zero or below).
    pub fn new(n: i64) -> Option<Self> {
        NonZeroI64::new(n).filter(|n| n.get() > 0).map(Self)
    }

    pub fn get(self) -> i64 {
        self.0.get()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Text that is not a game's number (or any other id's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadId;

impl fmt::Display for BadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a valid id (a whole number; a game's number is 1 or more)")
    }
}

impl std::error::Error for BadId {}

impl FromStr for GameId {
    type Err = BadId;

    fn from_str(s: &str) -> Result<Self, BadId> {
        s.parse().ok().and_then(Self::new).ok_or(BadId)
    }
}

impl TryFrom<i64> for GameId {
    type Error = BadId;

    fn try_from(n: i64) -> Result<Self, BadId> {
        Self::new(n).ok_or(BadId)
    }
}

impl From<GameId> for i64 {
    fn from(id: GameId) -> i64 {
        id.get()
    }
}

/// Discord's ids are snowflakes: 64-bit numbers, one type a kind of thing.
macro_rules! snowflake {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(u64);

        impl $name {
            pub const fn new(n: u64) -> Self {
                Self(n)
            }

            pub const fn get(self) -> u64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = BadId;

            fn from_str(s: &str) -> Result<Self, BadId> {
                s.parse().map(Self).map_err(|_| BadId)
            }
        }
    };
}

snowflake!(
    /// A Discord user, or a local player's number in `jackal play`.
    UserId
);
snowflake!(
    /// A Discord channel or thread.
    ChannelId
);
snowflake!(
    /// A Discord server.
    GuildId
);
snowflake!(
    /// A Discord message.
    MessageId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_number_is_positive() {
        assert_eq!(GameId::new(0), None);
        assert_eq!(GameId::new(-3), None);
        assert_eq!(GameId::new(12).map(GameId::get), Some(12));
        assert_eq!(
            "12".parse::<GameId>().map(|g| g.to_string()),
            Ok("12".into())
        );
        assert_eq!("0".parse::<GameId>(), Err(BadId));
        assert_eq!("-1".parse::<GameId>(), Err(BadId));
        assert_eq!("x".parse::<GameId>(), Err(BadId));
    }

    #[test]
    fn ids_are_stored_as_their_numbers() {
        let game = GameId::new(7).unwrap();
        assert_eq!(serde_json::to_string(&game).unwrap(), "7");
        assert_eq!(serde_json::from_str::<GameId>("7").unwrap(), game);
        assert!(serde_json::from_str::<GameId>("0").is_err());
        let user = UserId::new(u64::MAX);
        let text = serde_json::to_string(&user).unwrap();
        assert_eq!(serde_json::from_str::<UserId>(&text).unwrap(), user);
    }
}
