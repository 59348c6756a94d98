//! Rows of the store and the SQL that reads and writes them. Every function takes a
//! `&Connection`, so callers compose them inside their own transactions.

use rusqlite::types::{FromSql, FromSqlError, ValueRef};
use rusqlite::{OptionalExtension, Row, params};

use super::Db;
use serde::{Deserialize, Serialize};

use super::{Result, StoreError, digest};

pub type GameId = i64;
/// A Discord user id (a snowflake), or a local player's number in `jackal play`.
pub type UserId = u64;

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

/// Reads a text column through `parse` (for the enums stored as words).
fn text_column<T>(
    value: ValueRef<'_>,
    parse: fn(&str) -> Result<T>,
) -> rusqlite::types::FromSqlResult<T> {
    parse(value.as_str()?).map_err(|e| FromSqlError::Other(Box::new(e)))
}

impl FromSql for GameStatus {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        text_column(value, GameStatus::parse)
    }
}

impl FromSql for TimerKind {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        text_column(value, TimerKind::parse)
    }
}

// Discord snowflakes and seeds are u64; SQLite integers are i64. Both fit bit for bit.
fn to_sql(v: u64) -> i64 {
    v as i64
}

fn from_sql(v: i64) -> u64 {
    v as u64
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: GameId,
    pub guild_id: Option<u64>,
    pub channel_id: Option<u64>,
    pub thread_id: Option<u64>,
    pub status: GameStatus,
    pub settings: String,
    pub seed: Option<u64>,
    pub owner_id: UserId,
    pub language: String,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
    pub result: Option<String>,
    /// The lobby message in `channel_id` (Discord games).
    pub lobby_message_id: Option<u64>,
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

fn game_from_row(row: &Row) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        guild_id: row.get::<_, Option<i64>>(1)?.map(from_sql),
        channel_id: row.get::<_, Option<i64>>(2)?.map(from_sql),
        thread_id: row.get::<_, Option<i64>>(3)?.map(from_sql),
        status: row.get(4)?,
        settings: row.get(5)?,
        seed: row.get::<_, Option<i64>>(6)?.map(from_sql),
        owner_id: from_sql(row.get(7)?),
        language: row.get(8)?,
        created_at: row.get(9)?,
        started_at: row.get(10)?,
        ended_at: row.get(11)?,
        result: row.get(12)?,
        lobby_message_id: row.get::<_, Option<i64>>(13)?.map(from_sql),
        ply: row.get(14)?,
    })
}

/// What a new lobby starts with.
pub struct NewGame<'a> {
    pub guild_id: Option<u64>,
    pub channel_id: Option<u64>,
    pub thread_id: Option<u64>,
    pub settings: &'a str,
    pub owner_id: UserId,
    pub language: &'a str,
    pub created_at: i64,
}

pub fn insert_game(conn: &impl Db, g: &NewGame) -> Result<GameId> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO games (guild_id, channel_id, thread_id, status, settings, owner_id, language, \
         created_at) VALUES (?1, ?2, ?3, 'lobby', ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        g.guild_id.map(to_sql),
        g.channel_id.map(to_sql),
        g.thread_id.map(to_sql),
        g.settings,
        to_sql(g.owner_id),
        g.language,
        g.created_at
    ])?;
    Ok(conn.last_insert_rowid())
}

pub fn get_game(conn: &impl Db, id: GameId) -> Result<Option<GameRow>> {
    let conn = conn.sql();
    conn.prepare_cached(select_games!("FROM games g WHERE g.id = ?1"))?
        .query_row([id], game_from_row)
        .optional()
        .map_err(Into::into)
}

pub fn games_in_channel(conn: &impl Db, channel_id: u64) -> Result<Vec<GameRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(select_games!(
        "FROM games g WHERE (g.channel_id = ?1 OR g.thread_id = ?1) \
         AND g.status IN ('lobby', 'active') ORDER BY g.id"
    ))?;
    let rows = stmt.query_map([to_sql(channel_id)], game_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn games_of_user(conn: &impl Db, user: UserId, open_only: bool) -> Result<Vec<GameRow>> {
    let conn = conn.sql();
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
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([to_sql(user)], game_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn all_game_ids(conn: &impl Db) -> Result<Vec<GameId>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached("SELECT id FROM games ORDER BY id")?;
    let ids = stmt.query_map([], |r| r.get(0))?;
    Ok(ids.collect::<rusqlite::Result<_>>()?)
}

pub fn set_settings(conn: &impl Db, id: GameId, settings: &str) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("UPDATE games SET settings = ?2 WHERE id = ?1")?
        .execute(params![id, settings])?;
    Ok(())
}

pub fn set_thread(conn: &impl Db, id: GameId, thread: Option<u64>) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("UPDATE games SET thread_id = ?2 WHERE id = ?1")?
        .execute(params![id, thread.map(to_sql)])?;
    Ok(())
}

pub fn set_lobby_message(conn: &impl Db, id: GameId, message: Option<u64>) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("UPDATE games SET lobby_message_id = ?2 WHERE id = ?1")?
        .execute(params![id, message.map(to_sql)])?;
    Ok(())
}

pub fn start_game(conn: &impl Db, id: GameId, seed: u64, at: i64) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "UPDATE games SET status = 'active', seed = ?2, started_at = ?3 WHERE id = ?1",
    )?
    .execute(params![id, to_sql(seed), at])?;
    Ok(())
}

pub fn end_game(
    conn: &impl Db,
    id: GameId,
    status: GameStatus,
    result: &str,
    at: i64,
) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("UPDATE games SET status = ?2, result = ?3, ended_at = ?4 WHERE id = ?1")?
        .execute(params![id, status.as_str(), result, at])?;
    Ok(())
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub game_id: GameId,
    pub team: u8,
    pub user_id: Option<UserId>,
    pub bot_level: Option<String>,
    pub joined_at: i64,
    pub missed_deadlines: u32,
    pub resigned: bool,
    /// The player a bot plays the seat for: one whose time ran out too often (they may take
    /// it back while the game runs), or one who resigned (`resigned`: they may not).
    pub away_user_id: Option<UserId>,
}

pub fn seats(conn: &impl Db, game: GameId) -> Result<Vec<SeatRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, team, user_id, bot_level, joined_at, missed_deadlines, resigned, \
         away_user_id FROM seats WHERE game_id = ?1 ORDER BY team",
    )?;
    let rows = stmt.query_map([game], |r| {
        Ok(SeatRow {
            game_id: r.get(0)?,
            team: r.get(1)?,
            user_id: r.get::<_, Option<i64>>(2)?.map(from_sql),
            bot_level: r.get(3)?,
            joined_at: r.get(4)?,
            missed_deadlines: r.get(5)?,
            resigned: r.get::<_, i64>(6)? != 0,
            away_user_id: r.get::<_, Option<i64>>(7)?.map(from_sql),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn put_seat(conn: &impl Db, seat: &SeatRow) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO seats (game_id, team, user_id, bot_level, joined_at, missed_deadlines, resigned, \
         away_user_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
         ON CONFLICT (game_id, team) DO UPDATE SET user_id = ?3, bot_level = ?4, joined_at = ?5, \
         missed_deadlines = ?6, resigned = ?7, away_user_id = ?8")?.execute(
        params![
            seat.game_id,
            seat.team,
            seat.user_id.map(to_sql),
            seat.bot_level,
            seat.joined_at,
            seat.missed_deadlines,
            seat.resigned as i64,
            seat.away_user_id.map(to_sql)
        ],
    )?;
    Ok(())
}

pub fn delete_seat(conn: &impl Db, game: GameId, team: u8) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("DELETE FROM seats WHERE game_id = ?1 AND team = ?2")?
        .execute(params![game, team])?;
    Ok(())
}

#[derive(Clone, Debug, PartialEq)]
pub struct ActionRow {
    pub game_id: GameId,
    pub ply: u32,
    pub team: u8,
    pub user_id: Option<UserId>,
    pub notation: String,
    pub action: String,
    pub events: String,
    pub created_at: i64,
}

/// Appends an action, with its link in the game's digest chain (store/digest.rs); `Ok(false)`
/// when that ply is already recorded (UNIQUE(game, ply)).
pub fn insert_action(conn: &impl Db, a: &ActionRow) -> Result<bool> {
    let conn = conn.sql();
    // The previous row is the neighbour of the one written, on a page the insert dirties
    // anyway: one indexed read, no replay.
    let prev = match a.ply.checked_sub(1) {
        Some(before) if before > 0 => stored_chain(conn, a.game_id, before)?,
        _ => None,
    };
    let chain = digest::link(prev.as_deref(), a);
    let result = conn.prepare_cached(
        "INSERT INTO actions (game_id, ply, team, user_id, notation, action, events, created_at, \
         chain) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")?.execute(
        params![
            a.game_id,
            a.ply,
            a.team,
            a.user_id.map(to_sql),
            a.notation,
            a.action,
            a.events,
            a.created_at,
            &chain[..]
        ],
    );
    match result {
        Ok(_) => Ok(true),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Actions with ply > `after`, in order.
pub fn actions_after(conn: &impl Db, game: GameId, after: u32) -> Result<Vec<ActionRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, ply, team, user_id, notation, action, events, created_at FROM actions \
         WHERE game_id = ?1 AND ply > ?2 ORDER BY ply",
    )?;
    let rows = stmt.query_map(params![game, after], action_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The chain value stored with the action at `ply` (`None`: no such row, or a row written
/// before chains existed).
fn stored_chain(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<Vec<u8>>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached("SELECT chain FROM actions WHERE game_id = ?1 AND ply = ?2")?
        .query_row(params![game, ply], |r| r.get::<_, Option<Vec<u8>>>(0))
        .optional()?
        .flatten())
}

/// An action row with the chain value stored beside it, for checking the log as it is read.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedAction {
    pub row: ActionRow,
    /// `None` for rows written before chains existed (migration 0007).
    pub chain: Option<Vec<u8>>,
}

/// Actions with `after` < ply ≤ `upto`, in order, each with its stored chain value.
pub fn log_between(
    conn: &impl Db,
    game: GameId,
    after: u32,
    upto: u32,
) -> Result<Vec<LoggedAction>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, ply, team, user_id, notation, action, events, created_at, chain \
         FROM actions WHERE game_id = ?1 AND ply > ?2 AND ply <= ?3 ORDER BY ply",
    )?;
    let rows = stmt.query_map(params![game, after, upto], |r| {
        Ok(LoggedAction {
            row: action_row(r)?,
            chain: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// An `ActionRow` from the columns selected above, in that order.
fn action_row(r: &rusqlite::Row) -> rusqlite::Result<ActionRow> {
    Ok(ActionRow {
        game_id: r.get(0)?,
        ply: r.get(1)?,
        team: r.get(2)?,
        user_id: r.get::<_, Option<i64>>(3)?.map(from_sql),
        notation: r.get(4)?,
        action: r.get(5)?,
        events: r.get(6)?,
        created_at: r.get(7)?,
    })
}

/// The action recorded at `ply`, if any (one indexed row, whatever the game's length).
pub fn action_at(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<ActionRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, ply, team, user_id, notation, action, events, created_at FROM actions \
         WHERE game_id = ?1 AND ply = ?2",
    )?;
    Ok(stmt.query_row(params![game, ply], action_row).optional()?)
}

/// How many moves were complete after `ply` actions: the actions that did not stop for a
/// choice (a move through a fork or a horse is several plies, and one move to a player).
pub fn completed_moves(conn: &impl Db, game: GameId, ply: u32) -> Result<u32> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*) FROM actions WHERE game_id = ?1 AND ply <= ?2 \
         AND instr(events, '\"ChoiceRequired\"') = 0",
    )?;
    Ok(stmt.query_row(params![game, ply], |r| r.get(0))?)
}

/// The first ply after `ply` that completed a move (`None`: no move is complete since).
pub fn next_move_end(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<u32>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT MIN(ply) FROM actions WHERE game_id = ?1 AND ply > ?2 \
         AND instr(events, '\"ChoiceRequired\"') = 0",
    )?;
    Ok(stmt.query_row(params![game, ply], |r| r.get(0))?)
}

/// A stored snapshot, with what checking it needs ([`digest::check_snapshot`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSnapshot {
    pub ply: u32,
    /// The engine state after `ply` actions, as JSON.
    pub state: String,
    /// `None` for snapshots written before checksums existed (migration 0007).
    pub checksum: Option<Vec<u8>>,
    /// The chain value of the action at `ply`, read beside it (`None` at ply 0 or for a row
    /// written before chains existed).
    pub chain: Option<Vec<u8>>,
}

const SNAPSHOT_COLUMNS: &str = "SELECT s.ply, s.state, s.checksum, a.chain FROM snapshots s \
     LEFT JOIN actions a ON a.game_id = s.game_id AND a.ply = s.ply";

fn snapshot_row(r: &Row) -> rusqlite::Result<StoredSnapshot> {
    Ok(StoredSnapshot {
        ply: r.get(0)?,
        state: r.get(1)?,
        checksum: r.get(2)?,
        chain: r.get(3)?,
    })
}

/// The latest snapshot at or before `ply` (one indexed read, whatever the game's length).
pub fn snapshot_before(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<StoredSnapshot>> {
    let conn = conn.sql();
    let sql = format!(
        "{SNAPSHOT_COLUMNS} WHERE s.game_id = ?1 AND s.ply <= ?2 ORDER BY s.ply DESC LIMIT 1"
    );
    Ok(conn
        .prepare_cached(&sql)?
        .query_row(params![game, ply], snapshot_row)
        .optional()?)
}

/// Every snapshot of a game, in order (for `jackal doctor`).
pub fn snapshots_of(conn: &impl Db, game: GameId) -> Result<Vec<StoredSnapshot>> {
    let conn = conn.sql();
    let sql = format!("{SNAPSHOT_COLUMNS} WHERE s.game_id = ?1 ORDER BY s.ply");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([game], snapshot_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Stores the state after `ply` actions, with its checksum over the game, the ply, the log's
/// chain at that ply (the action at `ply` must be written first) and the state.
pub fn insert_snapshot(conn: &impl Db, game: GameId, ply: u32, state: &str, at: i64) -> Result<()> {
    let conn = conn.sql();
    let chain = match ply {
        0 => None,
        _ => stored_chain(conn, game, ply)?,
    };
    // Read here rather than passed in, so that the checksum covers the row as stored (one
    // indexed read, every 25th ply).
    let (settings, seed): (String, Option<i64>) = conn
        .prepare_cached("SELECT settings, seed FROM games WHERE id = ?1")?
        .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let owner = digest::Owner {
        game,
        seed: seed.map(from_sql),
        settings: &settings,
    };
    let checksum = digest::snapshot_checksum(owner, ply, chain.as_deref(), state);
    conn.prepare_cached(
        "INSERT OR REPLACE INTO snapshots (game_id, ply, state, created_at, checksum) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![game, ply, state, at, &checksum[..]])?;
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerKind {
    /// A human's time to move runs out.
    Deadline,
    /// A human's deadline is near (one of up to three, by slot).
    Reminder,
    /// A bot is to move.
    Bot,
    /// A pause proposal that the other players did not answer in time lapses.
    PauseVote,
    /// A running pause ends; the game goes on.
    PauseEnd,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimerRow {
    pub game_id: GameId,
    pub kind: TimerKind,
    /// A reminder's slot, 0–2; 0 for the other kinds.
    pub slot: u8,
    pub ply: u32,
    pub due_at: i64,
    pub fired_at: Option<i64>,
}

impl TimerKind {
    fn as_str(self) -> &'static str {
        match self {
            TimerKind::Deadline => "deadline",
            TimerKind::Reminder => "reminder",
            TimerKind::Bot => "bot",
            TimerKind::PauseVote => "pause_vote",
            TimerKind::PauseEnd => "pause_end",
        }
    }

    fn parse(text: &str) -> Result<TimerKind> {
        match text {
            "deadline" => Ok(TimerKind::Deadline),
            "reminder" => Ok(TimerKind::Reminder),
            "bot" => Ok(TimerKind::Bot),
            "pause_vote" => Ok(TimerKind::PauseVote),
            "pause_end" => Ok(TimerKind::PauseEnd),
            other => Err(StoreError::Corrupt(format!("timer kind `{other}`"))),
        }
    }
}

/// The most reminders a turn has (a player's own choice, or the game's one).
pub const MAX_REMINDERS: usize = 3;

/// Sets the timers of a human's turn at `ply`: its deadline and its reminders, up to
/// [`MAX_REMINDERS`], one slot each (and drops a bot's timer). Each game has one row per kind
/// and slot, updated in place: a move rewrites the rows it had rather than adding new ones.
pub fn set_turn_timers(
    conn: &impl Db,
    game: GameId,
    ply: u32,
    deadline: i64,
    reminders: &[i64],
) -> Result<()> {
    let conn = conn.sql();
    // `macro_rules` keeps the shared clause in one place and the SQL a constant (the
    // statement cache is keyed by its text).
    macro_rules! upsert {
        ($values:literal) => {
            concat!(
                "INSERT INTO timers (game_id, kind, slot, ply, due_at) VALUES ",
                $values,
                " ON CONFLICT (game_id, kind, slot) DO UPDATE SET ply = excluded.ply, \
                 due_at = excluded.due_at, fired_at = NULL"
            )
        };
    }
    conn.prepare_cached("DELETE FROM timers WHERE game_id = ?1 AND kind = 'bot'")?
        .execute([game])?;
    match reminders {
        // The usual turn, one reminder: one statement for both rows.
        [at] => {
            conn.prepare_cached(upsert!(
                "(?1, 'deadline', 0, ?2, ?3), (?1, 'reminder', 0, ?2, ?4)"
            ))?
            .execute(params![game, ply, deadline, at])?;
        }
        _ => {
            conn.prepare_cached(upsert!("(?1, 'deadline', 0, ?2, ?3)"))?
                .execute(params![game, ply, deadline])?;
            for (slot, at) in reminders.iter().take(MAX_REMINDERS).enumerate() {
                conn.prepare_cached(upsert!("(?1, 'reminder', ?2, ?3, ?4)"))?
                    .execute(params![game, slot as i64, ply, at])?;
            }
        }
    }
    conn.prepare_cached(
        "DELETE FROM timers WHERE game_id = ?1 AND kind = 'reminder' AND slot >= ?2",
    )?
    .execute(params![game, reminders.len().min(MAX_REMINDERS) as i64])?;
    Ok(())
}

/// Sets the timer of a bot's turn at `ply` (in place of a human's deadline and reminders).
pub fn set_bot_timer(conn: &impl Db, game: GameId, ply: u32, due: i64) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "DELETE FROM timers WHERE game_id = ?1 AND kind IN ('deadline', 'reminder')",
    )?
    .execute([game])?;
    conn.prepare_cached(
        "INSERT INTO timers (game_id, kind, slot, ply, due_at) VALUES (?1, 'bot', 0, ?2, ?3) \
         ON CONFLICT (game_id, kind, slot) DO UPDATE SET ply = excluded.ply, \
         due_at = excluded.due_at, fired_at = NULL",
    )?
    .execute(params![game, ply, due])?;
    Ok(())
}

/// Sets a game's timer of `kind` (a pause's), whatever turn it is.
pub fn set_game_timer(conn: &impl Db, game: GameId, kind: TimerKind, due: i64) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO timers (game_id, kind, slot, ply, due_at) VALUES (?1, ?2, 0, 0, ?3) \
         ON CONFLICT (game_id, kind, slot) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL",
    )?
    .execute(params![game, kind.as_str(), due])?;
    Ok(())
}

/// Drops a game's timer of `kind` (a pause's).
pub fn drop_game_timer(conn: &impl Db, game: GameId, kind: TimerKind) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("DELETE FROM timers WHERE game_id = ?1 AND kind = ?2")?
        .execute(params![game, kind.as_str()])?;
    Ok(())
}

/// Drops the game's timers (the game ended).
pub fn clear_timers(conn: &impl Db, game: GameId) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("DELETE FROM timers WHERE game_id = ?1")?
        .execute([game])?;
    Ok(())
}

const TIMER_COLUMNS: &str = "game_id, kind, slot, ply, due_at, fired_at";

fn timers_query(conn: &impl Db, sql: &str, p: impl rusqlite::Params) -> Result<Vec<TimerRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(p, |r| {
        Ok(TimerRow {
            game_id: r.get(0)?,
            kind: r.get(1)?,
            slot: r.get(2)?,
            ply: r.get(3)?,
            due_at: r.get(4)?,
            fired_at: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Timers due at `now` that have not fired, earliest first.
pub fn due_timers(conn: &impl Db, now: i64) -> Result<Vec<TimerRow>> {
    let conn = conn.sql();
    let sql = format!(
        "SELECT {TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ?1 \
         ORDER BY due_at, game_id, kind, slot"
    );
    timers_query(conn, &sql, [now])
}

pub fn game_timers(conn: &impl Db, game: GameId) -> Result<Vec<TimerRow>> {
    let conn = conn.sql();
    let sql = format!(
        "SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ?1 ORDER BY due_at, kind, slot"
    );
    timers_query(conn, &sql, [game])
}

/// The earliest time a pending timer is due (a game's or a player's), for the scheduler's
/// sleep.
pub fn next_timer_due(conn: &impl Db) -> Result<Option<i64>> {
    let conn = conn.sql();
    Ok(conn.query_row(
        "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due FROM timers WHERE fired_at IS NULL \
         UNION ALL SELECT MIN(due_at) FROM user_timers WHERE fired_at IS NULL)",
        [],
        |r| r.get(0),
    )?)
}

/// Moves a pending timer to `due` (a reminder that waits for the end of quiet hours); false
/// if it fired meanwhile or was replaced by a later turn's.
pub fn postpone_timer(conn: &impl Db, timer: &TimerRow, due: i64) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "UPDATE timers SET due_at = ?5 WHERE game_id = ?1 AND kind = ?2 AND slot = ?3 \
             AND ply = ?4 AND fired_at IS NULL",
        )?
        .execute(params![
            timer.game_id,
            timer.kind.as_str(),
            timer.slot,
            timer.ply,
            due
        ])?
        == 1)
}

/// Marks a timer fired; false if it already had, or was replaced by a later turn's.
pub fn mark_timer_fired(conn: &impl Db, timer: &TimerRow, at: i64) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "UPDATE timers SET fired_at = ?5 WHERE game_id = ?1 AND kind = ?2 AND slot = ?3 \
             AND ply = ?4 AND fired_at IS NULL",
        )?
        .execute(params![
            timer.game_id,
            timer.kind.as_str(),
            timer.slot,
            timer.ply,
            at
        ])?
        == 1)
}

/// The unfired deadline of a game's turn at `ply`, if it has one.
pub fn deadline_at(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<i64>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT due_at FROM timers WHERE game_id = ?1 AND kind = 'deadline' AND slot = 0 \
             AND ply = ?2 AND fired_at IS NULL",
        )?
        .query_row(params![game, ply], |r| r.get(0))
        .optional()?)
}

/// The deadline running in a game now, whichever ply it was set for.
pub fn running_deadline(conn: &impl Db, game: GameId) -> Result<Option<i64>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT MIN(due_at) FROM timers WHERE game_id = ?1 AND kind = 'deadline' \
             AND fired_at IS NULL",
        )?
        .query_row(params![game], |r| r.get(0))?)
}

/// A player's timer (not a game's): the daily digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserTimerKind {
    Digest,
}

impl UserTimerKind {
    fn as_str(self) -> &'static str {
        match self {
            UserTimerKind::Digest => "digest",
        }
    }
}

impl FromSql for UserTimerKind {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        match value.as_str()? {
            "digest" => Ok(UserTimerKind::Digest),
            other => Err(FromSqlError::Other(
                format!("user timer kind `{other}`").into(),
            )),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserTimerRow {
    pub user_id: UserId,
    pub kind: UserTimerKind,
    pub due_at: i64,
}

/// Sets (or moves) a player's timer of `kind`.
pub fn set_user_timer(conn: &impl Db, user: UserId, kind: UserTimerKind, due: i64) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO user_timers (user_id, kind, due_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (user_id, kind) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL",
    )?
    .execute(params![to_sql(user), kind.as_str(), due])?;
    Ok(())
}

pub fn drop_user_timer(conn: &impl Db, user: UserId, kind: UserTimerKind) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("DELETE FROM user_timers WHERE user_id = ?1 AND kind = ?2")?
        .execute(params![to_sql(user), kind.as_str()])?;
    Ok(())
}

/// Players' timers due at `now` that have not fired, earliest first.
pub fn due_user_timers(conn: &impl Db, now: i64) -> Result<Vec<UserTimerRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT user_id, kind, due_at FROM user_timers WHERE fired_at IS NULL AND due_at <= ?1 \
         ORDER BY due_at, user_id, kind",
    )?;
    let rows = stmt.query_map([now], |r| {
        Ok(UserTimerRow {
            user_id: from_sql(r.get(0)?),
            kind: r.get(1)?,
            due_at: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn user_timer(conn: &impl Db, user: UserId, kind: UserTimerKind) -> Result<Option<i64>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT due_at FROM user_timers WHERE user_id = ?1 AND kind = ?2 AND fired_at IS NULL",
        )?
        .query_row(params![to_sql(user), kind.as_str()], |r| r.get(0))
        .optional()?)
}

/// Marks a player's timer fired; false if it already had or was moved since it was read.
pub fn mark_user_timer_fired(conn: &impl Db, timer: &UserTimerRow, at: i64) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "UPDATE user_timers SET fired_at = ?4 WHERE user_id = ?1 AND kind = ?2 \
             AND due_at = ?3 AND fired_at IS NULL",
        )?
        .execute(params![
            to_sql(timer.user_id),
            timer.kind.as_str(),
            timer.due_at,
            at
        ])?
        == 1)
}

#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    pub id: i64,
    pub game_id: Option<GameId>,
    pub kind: String,
    pub target: String,
    pub payload: String,
    pub attempts: u32,
    pub created_at: i64,
    pub next_at: i64,
    pub sent_at: Option<i64>,
    pub last_error: Option<String>,
    /// The sender gave up on it (it also has a `sent_at`: it is no longer pending).
    pub given_up: bool,
}

pub fn insert_outbox(
    conn: &impl Db,
    game: Option<GameId>,
    kind: &str,
    target: &str,
    payload: &str,
    at: i64,
) -> Result<i64> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO outbox (game_id, kind, target, payload, created_at, next_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
    )?
    .execute(params![game, kind, target, payload, at])?;
    Ok(conn.last_insert_rowid())
}

fn outbox_query(conn: &impl Db, filter: &str, p: impl rusqlite::Params) -> Result<Vec<OutboxRow>> {
    let conn = conn.sql();
    outbox_query_limited(conn, filter, "", p)
}

/// [`outbox_query`] with a `LIMIT` clause (or none, for `""`).
fn outbox_query_limited(
    conn: &impl Db,
    filter: &str,
    limit: &str,
    p: impl rusqlite::Params,
) -> Result<Vec<OutboxRow>> {
    let conn = conn.sql();
    let sql = format!(
        "SELECT id, game_id, kind, target, payload, attempts, created_at, next_at, sent_at, \
         last_error, given_up FROM outbox {filter} ORDER BY id {limit}"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(p, |r| {
        Ok(OutboxRow {
            id: r.get(0)?,
            game_id: r.get(1)?,
            kind: r.get(2)?,
            target: r.get(3)?,
            payload: r.get(4)?,
            attempts: r.get(5)?,
            created_at: r.get(6)?,
            next_at: r.get(7)?,
            sent_at: r.get(8)?,
            last_error: r.get(9)?,
            given_up: r.get::<_, i64>(10)? != 0,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Unsent messages whose backoff has passed, oldest first.
pub fn pending_outbox(conn: &impl Db, now: i64) -> Result<Vec<OutboxRow>> {
    let conn = conn.sql();
    outbox_query(conn, "WHERE sent_at IS NULL AND next_at <= ?1", [now])
}

/// Up to `limit` unsent messages after row `after`, oldest first, backoff or not: a page of
/// the backlog, walked through its own index (see migration 0010).
pub fn unsent_outbox_page(conn: &impl Db, after: i64, limit: usize) -> Result<Vec<OutboxRow>> {
    let conn = conn.sql();
    outbox_query_limited(
        conn,
        "INDEXED BY outbox_unsent WHERE sent_at IS NULL AND id > ?1",
        "LIMIT ?2",
        params![after, limit as i64],
    )
}

pub fn game_outbox(conn: &impl Db, game: GameId) -> Result<Vec<OutboxRow>> {
    let conn = conn.sql();
    outbox_query(conn, "WHERE game_id = ?1", [game])
}

pub fn mark_outbox_sent(conn: &impl Db, id: i64, at: i64) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached("UPDATE outbox SET sent_at = ?2 WHERE id = ?1 AND sent_at IS NULL")?
        .execute(params![id, at])?
        == 1)
}

/// Closes a row the sender will never deliver (it stays, with why, for the record).
pub fn mark_outbox_given_up(conn: &impl Db, id: i64, error: &str, at: i64) -> Result<bool> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "UPDATE outbox SET given_up = 1, sent_at = ?3, last_error = ?2, \
             attempts = attempts + 1 WHERE id = ?1 AND sent_at IS NULL",
        )?
        .execute(params![id, error, at])?
        == 1)
}

/// When the earliest unsent row may be sent (after its backoff), for the sender's sleep.
pub fn next_outbox_due(conn: &impl Db) -> Result<Option<i64>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached("SELECT MIN(next_at) FROM outbox WHERE sent_at IS NULL")?
        .query_row([], |r| r.get(0))?)
}

/// Records a failed send and when to try again.
pub fn mark_outbox_failed(conn: &impl Db, id: i64, error: &str, retry_at: i64) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_at = ?3 WHERE id = ?1",
    )?
    .execute(params![id, error, retry_at])?;
    Ok(())
}

/// Where a player's reminders go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReminderVia {
    /// A direct message (the thread when DMs are closed).
    Dm,
    /// A mention in the game's thread.
    Thread,
}

impl ReminderVia {
    pub fn as_str(self) -> &'static str {
        match self {
            ReminderVia::Dm => "dm",
            ReminderVia::Thread => "thread",
        }
    }

    fn parse(text: &str) -> Result<ReminderVia> {
        match text {
            "dm" => Ok(ReminderVia::Dm),
            "thread" => Ok(ReminderVia::Thread),
            other => Err(StoreError::Corrupt(format!("reminder_via `{other}`"))),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserPrefs {
    pub user_id: UserId,
    pub language: Option<String>,
    pub dms: bool,
    /// Quiet hours, minutes after local midnight (both or neither).
    pub quiet_start: Option<u16>,
    pub quiet_end: Option<u16>,
    /// An IANA zone name, checked when set.
    pub time_zone: String,
    /// Minutes before a deadline to be reminded, furthest first (at most [`MAX_REMINDERS`]);
    /// empty: never; `None`: as the game sets.
    pub reminders: Option<Vec<u16>>,
    /// `None`: a DM where DMs are open, else the thread.
    pub reminder_via: Option<ReminderVia>,
    /// The daily digest's local time (minutes after midnight); `None`: no digest.
    pub digest_minute: Option<u16>,
    /// When Discord last refused a DM to the user (their DMs are closed); `None`: open.
    pub dms_refused_at: Option<i64>,
    /// The user was told that their DMs are closed (once, until a DM goes through again).
    pub dms_told: bool,
    /// The language of the user's Discord client (`en`, `ru`) at their latest interaction.
    pub locale: Option<String>,
}

/// How long after Discord refused a DM (the user's DMs closed) the bot tries once more.
pub const DM_RETRY_MS: i64 = 7 * 24 * 3_600_000;

impl UserPrefs {
    /// Whether a DM to the user is worth a try at `now`: their DMs are open, or were found
    /// closed at least [`DM_RETRY_MS`] ago (one try a week, never one a turn).
    pub fn may_dm(&self, now: i64) -> bool {
        self.dms
            || self
                .dms_refused_at
                .is_none_or(|at| now.saturating_sub(at) >= DM_RETRY_MS)
    }

    pub fn default_for(user_id: UserId) -> UserPrefs {
        UserPrefs {
            user_id,
            language: None,
            dms: true,
            quiet_start: None,
            quiet_end: None,
            time_zone: "UTC".into(),
            reminders: None,
            reminder_via: None,
            digest_minute: None,
            dms_refused_at: None,
            dms_told: false,
            locale: None,
        }
    }
}

pub fn get_prefs(conn: &impl Db, user: UserId) -> Result<UserPrefs> {
    let conn = conn.sql();
    let row = conn
        .prepare_cached(
            "SELECT user_id, language, dms, quiet_start, quiet_end, time_zone, reminders, \
             reminder_via, digest_minute, dms_refused_at, dms_told, locale FROM user_prefs \
             WHERE user_id = ?1",
        )?
        .query_row([to_sql(user)], |r| {
            Ok((
                UserPrefs {
                    user_id: from_sql(r.get(0)?),
                    language: r.get(1)?,
                    dms: r.get::<_, i64>(2)? != 0,
                    quiet_start: r.get(3)?,
                    quiet_end: r.get(4)?,
                    time_zone: r.get(5)?,
                    reminders: None,
                    reminder_via: None,
                    digest_minute: r.get(8)?,
                    dms_refused_at: r.get(9)?,
                    dms_told: r.get::<_, i64>(10)? != 0,
                    locale: r.get(11)?,
                },
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<String>>(7)?,
            ))
        })
        .optional()?;
    let Some((mut prefs, reminders, via)) = row else {
        return Ok(UserPrefs::default_for(user));
    };
    prefs.reminders = reminders
        .map(|json| {
            serde_json::from_str::<Vec<u16>>(&json)
                .map_err(|_| StoreError::Corrupt(format!("reminders `{json}`")))
        })
        .transpose()?;
    prefs.reminder_via = via.as_deref().map(ReminderVia::parse).transpose()?;
    Ok(prefs)
}

pub fn put_prefs(conn: &impl Db, p: &UserPrefs) -> Result<()> {
    let conn = conn.sql();
    let reminders = p
        .reminders
        .as_ref()
        .map(|r| serde_json::to_string(r).expect("a list of numbers"));
    conn.prepare_cached(
        "INSERT INTO user_prefs (user_id, language, dms, quiet_start, quiet_end, time_zone, \
         reminders, reminder_via, digest_minute, dms_refused_at, dms_told, locale) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) \
         ON CONFLICT (user_id) DO UPDATE SET language = ?2, dms = ?3, quiet_start = ?4, \
         quiet_end = ?5, time_zone = ?6, reminders = ?7, reminder_via = ?8, digest_minute = ?9, \
         dms_refused_at = ?10, dms_told = ?11, locale = ?12",
    )?
    .execute(params![
        to_sql(p.user_id),
        p.language,
        p.dms as i64,
        p.quiet_start,
        p.quiet_end,
        p.time_zone,
        reminders,
        p.reminder_via.map(ReminderVia::as_str),
        p.digest_minute,
        p.dms_refused_at,
        p.dms_told as i64,
        p.locale
    ])?;
    Ok(())
}

/// The private "your turn" message a player was last sent in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptRow {
    pub game_id: GameId,
    pub user_id: UserId,
    pub ply: u32,
    pub channel_id: u64,
    pub message_id: u64,
}

/// Records (or replaces) a player's prompt in a game.
pub fn put_prompt(conn: &impl Db, p: &PromptRow) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO dm_prompts (game_id, user_id, ply, channel_id, message_id) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, user_id) DO UPDATE SET \
         ply = ?3, channel_id = ?4, message_id = ?5",
    )?
    .execute(params![
        p.game_id,
        to_sql(p.user_id),
        p.ply,
        to_sql(p.channel_id),
        to_sql(p.message_id)
    ])?;
    Ok(())
}

pub fn get_prompt(conn: &impl Db, game: GameId, user: UserId) -> Result<Option<PromptRow>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT game_id, user_id, ply, channel_id, message_id FROM dm_prompts \
             WHERE game_id = ?1 AND user_id = ?2",
        )?
        .query_row(params![game, to_sql(user)], |r| {
            Ok(PromptRow {
                game_id: r.get(0)?,
                user_id: from_sql(r.get(1)?),
                ply: r.get(2)?,
                channel_id: from_sql(r.get(3)?),
                message_id: from_sql(r.get(4)?),
            })
        })
        .optional()?)
}

/// A public post whose buttons ask a question (see [`Question`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionRow {
    pub game_id: GameId,
    pub question: Question,
    pub channel_id: u64,
    pub message_id: u64,
}

/// What a public post's buttons ask, until it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The vote on a proposed pause.
    PauseVote,
    /// "Take my seat back", for the player of this team.
    Reclaim { team: u8 },
}

impl Question {
    fn encode(self) -> String {
        match self {
            Question::PauseVote => "pause_vote".into(),
            Question::Reclaim { team } => format!("reclaim:{team}"),
        }
    }

    fn parse(text: &str) -> Result<Question> {
        match text.split_once(':') {
            None if text == "pause_vote" => Ok(Question::PauseVote),
            Some(("reclaim", team)) => team
                .parse()
                .map(|team| Question::Reclaim { team })
                .map_err(|_| StoreError::Corrupt(format!("question `{text}`"))),
            _ => Err(StoreError::Corrupt(format!("question `{text}`"))),
        }
    }
}

/// Remembers a public post that asks `question`.
pub fn put_question(conn: &impl Db, q: &QuestionRow) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT OR IGNORE INTO questions (game_id, question, channel_id, message_id) \
         VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![
        q.game_id,
        q.question.encode(),
        to_sql(q.channel_id),
        to_sql(q.message_id)
    ])?;
    Ok(())
}

/// The posts of a game still asking `question` (every question when `None`).
pub fn questions(
    conn: &impl Db,
    game: GameId,
    question: Option<Question>,
) -> Result<Vec<QuestionRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, question, channel_id, message_id FROM questions WHERE game_id = ?1 \
         AND (?2 IS NULL OR question = ?2) ORDER BY message_id",
    )?;
    let rows = stmt.query_map(params![game, question.map(Question::encode)], |r| {
        Ok((
            r.get::<_, GameId>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, i64>(3)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (game_id, question, channel, message) = row?;
        out.push(QuestionRow {
            game_id,
            question: Question::parse(&question)?,
            channel_id: from_sql(channel),
            message_id: from_sql(message),
        });
    }
    Ok(out)
}

/// Forgets a question once its buttons are gone.
pub fn delete_question(conn: &impl Db, q: &QuestionRow) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "DELETE FROM questions WHERE game_id = ?1 AND question = ?2 AND message_id = ?3",
    )?
    .execute(params![
        q.game_id,
        q.question.encode(),
        to_sql(q.message_id)
    ])?;
    Ok(())
}

/// Every private prompt of a game still on record (each player's latest).
pub fn game_prompts(conn: &impl Db, game: GameId) -> Result<Vec<PromptRow>> {
    let conn = conn.sql();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, user_id, ply, channel_id, message_id FROM dm_prompts \
         WHERE game_id = ?1 ORDER BY user_id",
    )?;
    let rows = stmt.query_map([game], |r| {
        Ok(PromptRow {
            game_id: r.get(0)?,
            user_id: from_sql(r.get(1)?),
            ply: r.get(2)?,
            channel_id: from_sql(r.get(3)?),
            message_id: from_sql(r.get(4)?),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Forgets a prompt, only if it is still the one at `message_id` (a newer prompt stays).
pub fn delete_prompt(conn: &impl Db, game: GameId, user: UserId, message_id: u64) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "DELETE FROM dm_prompts WHERE game_id = ?1 AND user_id = ?2 AND message_id = ?3",
    )?
    .execute(params![game, to_sql(user), to_sql(message_id)])?;
    Ok(())
}

/// Every language chosen: users' and servers' ids, each with its language code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChosenLanguages {
    pub users: Vec<(UserId, String)>,
    pub guilds: Vec<(u64, String)>,
}

pub fn chosen_languages(conn: &impl Db) -> Result<ChosenLanguages> {
    let conn = conn.sql();
    let users = conn
        .prepare_cached("SELECT user_id, language FROM user_prefs WHERE language IS NOT NULL")?
        .query_map([], |r| Ok((from_sql(r.get(0)?), r.get(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let guilds = conn
        .prepare_cached("SELECT guild_id, language FROM guild_prefs WHERE language IS NOT NULL")?
        .query_map([], |r| Ok((from_sql(r.get(0)?), r.get(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(ChosenLanguages { users, guilds })
}

/// A server's language, if it chose one.
pub fn guild_language(conn: &impl Db, guild: u64) -> Result<Option<String>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached("SELECT language FROM guild_prefs WHERE guild_id = ?1")?
        .query_row([to_sql(guild)], |r| r.get(0))
        .optional()?
        .flatten())
}

pub fn set_guild_language(conn: &impl Db, guild: u64, language: Option<&str>) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO guild_prefs (guild_id, language) VALUES (?1, ?2) \
         ON CONFLICT (guild_id) DO UPDATE SET language = ?2",
    )?
    .execute(params![to_sql(guild), language])?;
    Ok(())
}

/// A player's vacation in a server, in the calendar year it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationRow {
    pub guild_id: u64,
    pub user_id: UserId,
    pub year: i32,
    /// Spent of this year's allowance.
    pub used_ms: i64,
    /// On vacation until then; `None`: not on vacation.
    pub until_ms: Option<i64>,
    /// Since when a deadline was held (the charge runs from here to `until_ms`).
    pub held_from: Option<i64>,
}

fn vacation_row(r: &Row) -> rusqlite::Result<VacationRow> {
    Ok(VacationRow {
        guild_id: from_sql(r.get(0)?),
        user_id: from_sql(r.get(1)?),
        year: r.get(2)?,
        used_ms: r.get(3)?,
        until_ms: r.get(4)?,
        held_from: r.get(5)?,
    })
}

/// The player's row for `year` (used nothing yet when there is none).
pub fn get_vacation(conn: &impl Db, guild: u64, user: UserId, year: i32) -> Result<VacationRow> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT guild_id, user_id, year, used_ms, until_ms, held_from FROM vacations \
             WHERE guild_id = ?1 AND user_id = ?2 AND year = ?3",
        )?
        .query_row(params![to_sql(guild), to_sql(user), year], vacation_row)
        .optional()?
        .unwrap_or(VacationRow {
            guild_id: guild,
            user_id: user,
            year,
            used_ms: 0,
            until_ms: None,
            held_from: None,
        }))
}

/// The player's vacation in a server running at `now` (whatever year it began in).
pub fn running_vacation(
    conn: &impl Db,
    guild: u64,
    user: UserId,
    now: i64,
) -> Result<Option<VacationRow>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT guild_id, user_id, year, used_ms, until_ms, held_from FROM vacations \
             WHERE guild_id = ?1 AND user_id = ?2 AND until_ms > ?3 ORDER BY year DESC LIMIT 1",
        )?
        .query_row(params![to_sql(guild), to_sql(user), now], vacation_row)
        .optional()?)
}

pub fn put_vacation(conn: &impl Db, v: &VacationRow) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO vacations (guild_id, user_id, year, used_ms, until_ms, held_from) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (guild_id, user_id, year) DO UPDATE SET \
         used_ms = ?4, until_ms = ?5, held_from = ?6",
    )?
    .execute(params![
        to_sql(v.guild_id),
        to_sql(v.user_id),
        v.year,
        v.used_ms,
        v.until_ms,
        v.held_from
    ])?;
    Ok(())
}

/// A server's limits: vacation days a year and the longest pause, in days (`None`: the
/// defaults).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuildLimits {
    pub vacation_days: Option<u32>,
    pub max_pause_days: Option<u32>,
}

pub fn guild_limits(conn: &impl Db, guild: u64) -> Result<GuildLimits> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached(
            "SELECT vacation_days, max_pause_days FROM guild_prefs WHERE guild_id = ?1",
        )?
        .query_row([to_sql(guild)], |r| {
            Ok(GuildLimits {
                vacation_days: r.get(0)?,
                max_pause_days: r.get(1)?,
            })
        })
        .optional()?
        .unwrap_or_default())
}

pub fn set_guild_limits(conn: &impl Db, guild: u64, limits: GuildLimits) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached(
        "INSERT INTO guild_prefs (guild_id, vacation_days, max_pause_days) VALUES (?1, ?2, ?3) \
         ON CONFLICT (guild_id) DO UPDATE SET vacation_days = ?2, max_pause_days = ?3",
    )?
    .execute(params![
        to_sql(guild),
        limits.vacation_days,
        limits.max_pause_days
    ])?;
    Ok(())
}

/// A game's pause: proposed (no `ends_at` yet) or running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PauseRow {
    pub game_id: GameId,
    /// The team that proposed it.
    pub proposer: u8,
    pub length_ms: i64,
    pub proposed_at: i64,
    /// The teams that accepted (the proposer among them).
    pub accepted: Vec<u8>,
    /// The teams that voted against.
    pub refused: Vec<u8>,
    pub ends_at: Option<i64>,
}

pub fn get_pause(conn: &impl Db, game: GameId) -> Result<Option<PauseRow>> {
    let conn = conn.sql();
    let row = conn
        .prepare_cached(
            "SELECT game_id, proposer, length_ms, proposed_at, accepted, ends_at, refused \
             FROM pauses WHERE game_id = ?1",
        )?
        .query_row([game], |r| {
            Ok((
                PauseRow {
                    game_id: r.get(0)?,
                    proposer: r.get(1)?,
                    length_ms: r.get(2)?,
                    proposed_at: r.get(3)?,
                    accepted: Vec::new(),
                    refused: Vec::new(),
                    ends_at: r.get(5)?,
                },
                r.get::<_, String>(4)?,
                r.get::<_, String>(6)?,
            ))
        })
        .optional()?;
    let Some((mut pause, accepted, refused)) = row else {
        return Ok(None);
    };
    let teams = |json: &str| {
        serde_json::from_str::<Vec<u8>>(json)
            .map_err(|_| StoreError::Corrupt(format!("pause votes `{json}`")))
    };
    pause.accepted = teams(&accepted)?;
    pause.refused = teams(&refused)?;
    Ok(Some(pause))
}

pub fn put_pause(conn: &impl Db, p: &PauseRow) -> Result<()> {
    let conn = conn.sql();
    let accepted = serde_json::to_string(&p.accepted).expect("a list of numbers");
    let refused = serde_json::to_string(&p.refused).expect("a list of numbers");
    conn.prepare_cached(
        "INSERT INTO pauses (game_id, proposer, length_ms, proposed_at, accepted, ends_at, \
         refused) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (game_id) DO UPDATE SET \
         proposer = ?2, length_ms = ?3, proposed_at = ?4, accepted = ?5, ends_at = ?6, \
         refused = ?7",
    )?
    .execute(params![
        p.game_id,
        p.proposer,
        p.length_ms,
        p.proposed_at,
        accepted,
        p.ends_at,
        refused
    ])?;
    Ok(())
}

pub fn delete_pause(conn: &impl Db, game: GameId) -> Result<()> {
    let conn = conn.sql();
    conn.prepare_cached("DELETE FROM pauses WHERE game_id = ?1")?
        .execute([game])?;
    Ok(())
}

/// The end of the game's running pause, if one runs at `now`.
pub fn paused_until(conn: &impl Db, game: GameId, now: i64) -> Result<Option<i64>> {
    let conn = conn.sql();
    Ok(conn
        .prepare_cached("SELECT ends_at FROM pauses WHERE game_id = ?1 AND ends_at > ?2")?
        .query_row(params![game, now], |r| r.get(0))
        .optional()?)
}
