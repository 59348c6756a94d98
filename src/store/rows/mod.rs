//! Rows of the store and the SQL that reads and writes them, a module a table (or a few that
//! belong together). Every function takes a `&impl Db`, so callers compose them inside their
//! own transactions.

mod actions;
mod games;
mod guilds;
mod lease;
mod outbox;
mod pauses;
mod ratings;
mod results;
mod sql;
mod timers;
mod undo;
mod users;

pub use actions::*;
pub use games::*;
pub use guilds::*;
pub use lease::Lease;
pub use outbox::*;
pub use pauses::*;
pub use ratings::*;
pub use results::*;
pub use timers::*;
pub use undo::*;
pub use users::*;

pub use crate::id::{ChannelId, GameId, GuildId, MessageId, UserId};
use crate::words::Lang;
