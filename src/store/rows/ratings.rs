//! Players' ratings on each ladder, and what each rated game changed.

use super::super::sql::{ColumnError, FromValue, Row, ToValue, Value, params, text_column};

use super::super::{Db, Result, StoreError};
use super::sql::{from_sql, to_sql};
use super::*;
use crate::engine::Team;

/// A ladder: one server's, or every server's together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatingScope {
    All,
    Guild(GuildId),
}

impl ToValue for RatingScope {
    fn to_value(&self) -> Value<'_> {
        Value::Int(match self {
            RatingScope::All => 0,
            RatingScope::Guild(guild) => to_sql(guild.get()),
        })
    }
}

impl FromValue for RatingScope {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        Ok(match i64::from_value(value)? {
            0 => RatingScope::All,
            guild => RatingScope::Guild(GuildId::new(from_sql(guild))),
        })
    }
}

/// Who holds a rating: a person, or a bot level (bots climb a ladder of their own). A bot is
/// named by its level's name, as seats store it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RatedPlayer {
    User(UserId),
    Bot(String),
}

impl RatedPlayer {
    pub fn encode(&self) -> String {
        match self {
            RatedPlayer::User(user) => format!("user:{user}"),
            RatedPlayer::Bot(level) => format!("bot:{level}"),
        }
    }

    pub fn parse(text: &str) -> Result<RatedPlayer> {
        let bad = || StoreError::Corrupt(format!("rated player `{text}`"));
        match text.split_once(':') {
            Some(("user", id)) => id.parse().map(RatedPlayer::User).map_err(|_| bad()),
            Some(("bot", level)) if !level.is_empty() => Ok(RatedPlayer::Bot(level.to_string())),
            _ => Err(bad()),
        }
    }
}

impl ToValue for RatedPlayer {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self.encode().into())
    }
}

impl FromValue for RatedPlayer {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        text_column(value, RatedPlayer::parse)
    }
}

/// A player's rating on one ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub scope: RatingScope,
    pub player: RatedPlayer,
    pub mu: f64,
    pub sigma: f64,
    /// Rated games played on this ladder.
    pub games: u32,
    pub updated_at: i64,
}

pub fn get_rating(
    conn: &impl Db,
    scope: RatingScope,
    player: &RatedPlayer,
) -> Result<Option<RatingRow>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT scope, player, mu, sigma, games, updated_at FROM ratings \
             WHERE scope = ?1 AND player = ?2",
        params![scope, player],
        rating_row,
    )
}

fn rating_row(r: &Row) -> Result<RatingRow> {
    Ok(RatingRow {
        scope: r.get(0)?,
        player: r.get(1)?,
        mu: r.get(2)?,
        sigma: r.get(3)?,
        games: r.get(4)?,
        updated_at: r.get(5)?,
    })
}

pub fn put_rating(conn: &impl Db, rating: &RatingRow) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO ratings (scope, player, mu, sigma, games, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
         ON CONFLICT (scope, player) DO UPDATE SET mu = ?3, sigma = ?4, games = ?5, \
         updated_at = ?6",
        params![
            rating.scope,
            rating.player,
            rating.mu,
            rating.sigma,
            rating.games,
            rating.updated_at
        ],
    )?;
    Ok(())
}

/// What one rated game did to one seat's rating on one ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub game_id: GameId,
    pub scope: RatingScope,
    pub team: Team,
    pub player: RatedPlayer,
    /// 1 for first; tied seats share a rank.
    pub rank: u8,
    pub mu_before: f64,
    pub sigma_before: f64,
    pub mu_after: f64,
    pub sigma_after: f64,
}

pub fn insert_rating_change(conn: &impl Db, change: &RatingChange) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO rating_changes (game_id, scope, team, player, rank, mu_before, \
         sigma_before, mu_after, sigma_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            change.game_id,
            change.scope,
            change.team,
            change.player,
            change.rank,
            change.mu_before,
            change.sigma_before,
            change.mu_after,
            change.sigma_after
        ],
    )?;
    Ok(())
}

/// What a game changed, ladder by ladder, seat by seat.
pub fn rating_changes_of_game(conn: &impl Db, game: GameId) -> Result<Vec<RatingChange>> {
    let rows = conn.link().query_many(
        "SELECT game_id, scope, team, player, rank, mu_before, sigma_before, mu_after, \
         sigma_after FROM rating_changes WHERE game_id = ?1 ORDER BY scope, team",
        params![game],
        rating_change_row,
    )?;
    Ok(rows)
}

/// A player's rating on one ladder after each of their rated games there, oldest first: the
/// history a stats chart draws. Each game's change of their first seat in it.
pub fn rating_history(
    conn: &impl Db,
    player: &RatedPlayer,
    scope: RatingScope,
) -> Result<Vec<RatingChange>> {
    let rows = conn.link().query_many(
        "SELECT game_id, scope, team, player, rank, mu_before, sigma_before, mu_after, \
         sigma_after FROM rating_changes WHERE player = ?1 AND scope = ?2 ORDER BY game_id, team",
        params![player, scope],
        rating_change_row,
    )?;
    let mut changes: Vec<RatingChange> = rows;
    changes.dedup_by_key(|c| c.game_id);
    Ok(changes)
}

fn rating_change_row(r: &Row) -> Result<RatingChange> {
    Ok(RatingChange {
        game_id: r.get(0)?,
        scope: r.get(1)?,
        team: r.get(2)?,
        player: r.get(3)?,
        rank: r.get(4)?,
        mu_before: r.get(5)?,
        sigma_before: r.get(6)?,
        mu_after: r.get(7)?,
        sigma_after: r.get(8)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rated_players_read_back() {
        for player in [
            RatedPlayer::User(UserId::new(u64::MAX)),
            RatedPlayer::Bot("normal".into()),
        ] {
            assert_eq!(RatedPlayer::parse(&player.encode()).unwrap(), player);
        }
        for bad in ["", "user:", "user:x", "bot:", "robot:normal", "user"] {
            assert!(RatedPlayer::parse(bad).is_err(), "{bad}");
        }
    }
}
