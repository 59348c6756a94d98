//! Games and their seats.

use super::super::sql::{ColumnError, FromValue, Row, Value, params, text_column};
use serde::{Deserialize, Serialize};

use super::super::{Db, Result, StoreError};
use super::sql::{from_sql, to_sql};
use super::*;
use crate::engine::Team;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    Lobby,
    Active,
    Finished,
    Cancelled,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Lobby => "lobby",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> Result<GameStatus> {
        Ok(match text {
            "lobby" => GameStatus::Lobby,
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "cancelled" => GameStatus::Cancelled,
            other => return Err(StoreError::Corrupt(format!("game status `{other}`"))),
        })
    }
}

impl FromValue for GameStatus {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        text_column(value, GameStatus::parse)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: GameId,
    pub guild_id: Option<GuildId>,
    pub channel_id: Option<ChannelId>,
    pub thread_id: Option<ChannelId>,
    pub status: GameStatus,
    pub settings: String,
    pub seed: Option<u64>,
    pub owner_id: UserId,
    pub language: Lang,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
    pub result: Option<String>,
    /// The lobby message in `channel_id` (Discord games).
    pub lobby_message_id: Option<MessageId>,
    pub ply: u32,
}

/// `SELECT` of a game row from `games g`, followed by the rest of the query: a literal, so the
/// SQL of every move's game read is a constant, not built each time. A game's ply is how far its
/// action log goes: one seek in the actions' key, and no counter beside the log to keep in step.
macro_rules! select_games {
    ($rest:literal) => {
        concat!(
            "SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.status, g.settings, g.seed, \
             g.owner_id, g.language, g.created_at, g.started_at, g.ended_at, g.result, \
             g.lobby_message_id, (SELECT COALESCE(MAX(a.ply), 0) FROM actions a WHERE a.game_id = g.id) ",
            $rest
        )
    };
}

fn game_from_row(row: &Row) -> Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        guild_id: row.get(1)?,
        channel_id: row.get(2)?,
        thread_id: row.get(3)?,
        status: row.get(4)?,
        settings: row.get(5)?,
        seed: row.get::<Option<i64>>(6)?.map(from_sql),
        owner_id: row.get(7)?,
        language: row.get(8)?,
        created_at: row.get(9)?,
        started_at: row.get(10)?,
        ended_at: row.get(11)?,
        result: row.get(12)?,
        lobby_message_id: row.get(13)?,
        ply: row.get(14)?,
    })
}

/// What a new lobby starts with.
pub struct NewGame<'a> {
    pub guild_id: Option<GuildId>,
    pub channel_id: Option<ChannelId>,
    pub thread_id: Option<ChannelId>,
    pub settings: &'a str,
    pub owner_id: UserId,
    pub language: Lang,
    pub created_at: i64,
}

pub fn insert_game(conn: &impl Db, g: &NewGame) -> Result<GameId> {
    // `RETURNING` rather than the connection's last rowid: PostgreSQL has no such thing.
    let id: i64 = conn.link().query_one(
        "INSERT INTO games (guild_id, channel_id, thread_id, status, settings, owner_id, language, \
         created_at) VALUES (?1, ?2, ?3, 'lobby', ?4, ?5, ?6, ?7) RETURNING id",
        params![
            g.guild_id,
            g.channel_id,
            g.thread_id,
            g.settings,
            g.owner_id,
            g.language,
            g.created_at
        ],
        |r| r.get(0),
    )?;
    GameId::new(id)
        .ok_or_else(|| StoreError::Corrupt("the games table handed out a rowid below 1".into()))
}

pub fn get_game(conn: &impl Db, id: GameId) -> Result<Option<GameRow>> {
    let conn = conn.link();
    conn.query_opt(
        select_games!("FROM games g WHERE g.id = ?1"),
        params![id],
        game_from_row,
    )
}

pub fn games_in_channel(conn: &impl Db, channel_id: ChannelId) -> Result<Vec<GameRow>> {
    let conn = conn.link();
    let rows = conn.query_many(
        select_games!(
            "FROM games g WHERE (g.channel_id = ?1 OR g.thread_id = ?1) \
         AND g.status IN ('lobby', 'active') ORDER BY g.id"
        ),
        params![channel_id],
        game_from_row,
    )?;
    Ok(rows)
}

pub fn games_of_user(conn: &impl Db, user: UserId, open_only: bool) -> Result<Vec<GameRow>> {
    let conn = conn.link();
    let sql = if open_only {
        select_games!(
            "FROM games g WHERE g.id IN (SELECT s.game_id FROM seats s WHERE s.user_id = ?1) \
             AND g.status IN ('lobby', 'active') ORDER BY g.id"
        )
    } else {
        select_games!(
            "FROM games g WHERE g.id IN (SELECT s.game_id FROM seats s WHERE s.user_id = ?1) \
             ORDER BY g.id"
        )
    };
    let rows = conn.query_many(sql, params![user], game_from_row)?;
    Ok(rows)
}

pub fn all_game_ids(conn: &impl Db) -> Result<Vec<GameId>> {
    let conn = conn.link();
    let ids = conn.query_many("SELECT id FROM games ORDER BY id", params![], |r| r.get(0))?;
    Ok(ids)
}

pub fn set_settings(conn: &impl Db, id: GameId, settings: &str) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "UPDATE games SET settings = ?2 WHERE id = ?1",
        params![id, settings],
    )?;
    Ok(())
}

pub fn set_thread(conn: &impl Db, id: GameId, thread: Option<ChannelId>) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "UPDATE games SET thread_id = ?2 WHERE id = ?1",
        params![id, thread],
    )?;
    Ok(())
}

pub fn set_lobby_message(conn: &impl Db, id: GameId, message: Option<MessageId>) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "UPDATE games SET lobby_message_id = ?2 WHERE id = ?1",
        params![id, message],
    )?;
    Ok(())
}

pub fn start_game(conn: &impl Db, id: GameId, seed: u64, at: i64) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "UPDATE games SET status = 'active', seed = ?2, started_at = ?3 WHERE id = ?1",
        params![id, to_sql(seed), at],
    )?;
    Ok(())
}

pub fn end_game(
    conn: &impl Db,
    id: GameId,
    status: GameStatus,
    result: &str,
    at: i64,
) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "UPDATE games SET status = ?2, result = ?3, ended_at = ?4 WHERE id = ?1",
        params![id, status.as_str(), result, at],
    )?;
    Ok(())
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub game_id: GameId,
    pub team: Team,
    pub user_id: Option<UserId>,
    pub bot_level: Option<String>,
    pub joined_at: i64,
    /// Deadlines missed in a row (a move of the player's own starts again from 0).
    pub missed_deadlines: u32,
    /// Deadlines missed over the whole game.
    pub missed_total: u32,
    pub resigned: bool,
    /// The player a bot plays the seat for: one whose time ran out too often (they may take
    /// it back while the game runs), or one who resigned (`resigned`: they may not).
    pub away_user_id: Option<UserId>,
    /// The player removed from the running game (a bot plays on): rated last at its end.
    pub kicked_user_id: Option<UserId>,
}

pub fn seats(conn: &impl Db, game: GameId) -> Result<Vec<SeatRow>> {
    let conn = conn.link();
    let rows = conn.query_many(
        "SELECT game_id, team, user_id, bot_level, joined_at, missed_deadlines, resigned, \
         away_user_id, kicked_user_id, missed_total FROM seats WHERE game_id = ?1 ORDER BY team",
        params![game],
        |r| {
            Ok(SeatRow {
                game_id: r.get(0)?,
                team: r.get(1)?,
                user_id: r.get(2)?,
                bot_level: r.get(3)?,
                joined_at: r.get(4)?,
                missed_deadlines: r.get(5)?,
                resigned: r.get::<i64>(6)? != 0,
                away_user_id: r.get(7)?,
                kicked_user_id: r.get(8)?,
                missed_total: r.get(9)?,
            })
        },
    )?;
    Ok(rows)
}

pub fn put_seat(conn: &impl Db, seat: &SeatRow) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO seats (game_id, team, user_id, bot_level, joined_at, missed_deadlines, \
         resigned, away_user_id, kicked_user_id, missed_total) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
         ON CONFLICT (game_id, team) DO UPDATE SET user_id = ?3, bot_level = ?4, joined_at = ?5, \
         missed_deadlines = ?6, resigned = ?7, away_user_id = ?8, kicked_user_id = ?9, \
         missed_total = ?10",
        params![
            seat.game_id,
            seat.team,
            seat.user_id,
            seat.bot_level,
            seat.joined_at,
            seat.missed_deadlines,
            seat.resigned as i64,
            seat.away_user_id,
            seat.kicked_user_id,
            seat.missed_total
        ],
    )?;
    Ok(())
}

pub fn delete_seat(conn: &impl Db, game: GameId, team: Team) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM seats WHERE game_id = ?1 AND team = ?2",
        params![game, team],
    )?;
    Ok(())
}
