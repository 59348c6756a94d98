//! The action log and its snapshots.

use super::super::sql::{Row, params};

use super::super::{Db, Result, digest};
use super::sql::from_sql;
use super::*;

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
    let conn = conn.link();
    // The previous row is the neighbour of the one written, on a page the insert dirties
    // anyway: one indexed read, no replay.
    let prev = match a.ply.checked_sub(1) {
        Some(before) if before > 0 => stored_chain(&conn, a.game_id, before)?,
        _ => None,
    };
    let chain = digest::link(prev.as_deref(), a);
    let result = conn.execute(
        "INSERT INTO actions (game_id, ply, team, user_id, notation, action, events, created_at, \
         chain) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            a.game_id,
            a.ply,
            a.team,
            a.user_id,
            a.notation,
            a.action,
            a.events,
            a.created_at,
            &chain[..]
        ],
    );
    match result {
        Ok(_) => Ok(true),
        Err(e) if e.is_constraint_violation() => Ok(false),
        Err(e) => Err(e),
    }
}

/// Actions with ply > `after`, in order.
pub fn actions_after(conn: &impl Db, game: GameId, after: u32) -> Result<Vec<ActionRow>> {
    let conn = conn.link();
    let rows = conn.query_many(
        "SELECT game_id, ply, team, user_id, notation, action, events, created_at FROM actions \
         WHERE game_id = ?1 AND ply > ?2 ORDER BY ply",
        params![game, after],
        action_row,
    )?;
    Ok(rows)
}

/// The chain value stored with the action at `ply` (`None`: no such row, or a row written
/// before chains existed).
fn stored_chain(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<Vec<u8>>> {
    let conn = conn.link();
    Ok(conn
        .query_opt(
            "SELECT chain FROM actions WHERE game_id = ?1 AND ply = ?2",
            params![game, ply],
            |r| r.get::<Option<Vec<u8>>>(0),
        )?
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
    let conn = conn.link();
    let rows = conn.query_many(
        "SELECT game_id, ply, team, user_id, notation, action, events, created_at, chain \
         FROM actions WHERE game_id = ?1 AND ply > ?2 AND ply <= ?3 ORDER BY ply",
        params![game, after, upto],
        |r| {
            Ok(LoggedAction {
                row: action_row(r)?,
                chain: r.get(8)?,
            })
        },
    )?;
    Ok(rows)
}

/// An `ActionRow` from the columns selected above, in that order.
fn action_row(r: &Row) -> Result<ActionRow> {
    Ok(ActionRow {
        game_id: r.get(0)?,
        ply: r.get(1)?,
        team: r.get(2)?,
        user_id: r.get(3)?,
        notation: r.get(4)?,
        action: r.get(5)?,
        events: r.get(6)?,
        created_at: r.get(7)?,
    })
}

/// The action recorded at `ply`, if any (one indexed row, whatever the game's length).
pub fn action_at(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<ActionRow>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT game_id, ply, team, user_id, notation, action, events, created_at FROM actions \
         WHERE game_id = ?1 AND ply = ?2",
        params![game, ply],
        action_row,
    )
}

/// The log row of moves taken back by consent (issue 42): the state after it is the state
/// after ply `to`. It is a row of its own, never a removal, so the moves it takes back stay
/// in the log (the history marks them) and the digest chain runs through it like any row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TakeBack {
    pub to: u32,
}

/// How a take-back is written in the `action` column: a tag no engine action carries.
#[derive(serde::Serialize, serde::Deserialize)]
enum Marker {
    TakeBack(TakeBack),
}

impl TakeBack {
    /// What a take-back row's `notation` holds (the word a reader of the raw log sees).
    pub const NOTATION: &'static str = "undo";

    pub fn encode(self) -> String {
        serde_json::to_string(&Marker::TakeBack(self)).expect("plain data")
    }

    /// The take-back an `action` column holds, if it holds one (`None`: an engine action).
    pub fn parse(action: &str) -> Option<TakeBack> {
        // The cheap test first: every replayed row passes here.
        if !action.starts_with("{\"TakeBack\"") {
            return None;
        }
        match serde_json::from_str(action) {
            Ok(Marker::TakeBack(t)) => Some(t),
            Err(_) => None,
        }
    }
}

/// The latest take-back row at or before `ply`: its ply and where it went back to.
pub fn last_take_back(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<(u32, TakeBack)>> {
    let conn = conn.link();
    let row: Option<(u32, String)> = conn.query_opt(
        "SELECT ply, action FROM actions WHERE game_id = ?1 AND ply <= ?2 \
         AND notation = 'undo' AND action LIKE '{\"TakeBack\"%' ORDER BY ply DESC LIMIT 1",
        params![game, ply],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(row.and_then(|(at, action)| TakeBack::parse(&action).map(|t| (at, t))))
}

/// How many moves were complete after `ply` actions: the actions that did not stop for a
/// choice (a move through a fork or a horse is several plies, and one move to a player). A
/// take-back puts the count back where it was at the ply it returned to.
pub fn completed_moves(conn: &impl Db, game: GameId, ply: u32) -> Result<u32> {
    let mut upto = ply;
    let mut since = 0;
    // Each take-back returns below itself, so this ends; a game has few of them.
    loop {
        let back = last_take_back(conn, game, upto)?;
        let after = back.map_or(0, |(at, _)| at);
        since += moves_between(conn, game, after, upto)?;
        match back {
            Some((_, TakeBack { to })) => upto = to,
            None => return Ok(since),
        }
    }
}

/// Moves completed by the plies in `after+1..=upto` (none of them a take-back).
fn moves_between(conn: &impl Db, game: GameId, after: u32, upto: u32) -> Result<u32> {
    let conn = conn.link();
    conn.query_one(
        "SELECT COUNT(*) FROM actions WHERE game_id = ?1 AND ply > ?2 AND ply <= ?3 \
         AND instr(events, '\"ChoiceRequired\"') = 0",
        params![game, after, upto],
        |r| r.get(0),
    )
}

/// The first ply after `ply` that completed a move (`None`: no move is complete since).
pub fn next_move_end(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<u32>> {
    let conn = conn.link();
    conn.query_one(
        "SELECT MIN(ply) FROM actions WHERE game_id = ?1 AND ply > ?2 \
         AND instr(events, '\"ChoiceRequired\"') = 0",
        params![game, ply],
        |r| r.get(0),
    )
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

fn snapshot_row(r: &Row) -> Result<StoredSnapshot> {
    Ok(StoredSnapshot {
        ply: r.get(0)?,
        state: r.get(1)?,
        checksum: r.get(2)?,
        chain: r.get(3)?,
    })
}

/// The latest snapshot at or before `ply` (one indexed read, whatever the game's length).
pub fn snapshot_before(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<StoredSnapshot>> {
    let conn = conn.link();
    let sql = format!(
        "{SNAPSHOT_COLUMNS} WHERE s.game_id = ?1 AND s.ply <= ?2 ORDER BY s.ply DESC LIMIT 1"
    );
    conn.query_opt(&sql, params![game, ply], snapshot_row)
}

/// Every snapshot of a game, in order (for `jackal doctor`).
pub fn snapshots_of(conn: &impl Db, game: GameId) -> Result<Vec<StoredSnapshot>> {
    let conn = conn.link();
    let sql = format!("{SNAPSHOT_COLUMNS} WHERE s.game_id = ?1 ORDER BY s.ply");
    let rows = conn.query_many(&sql, params![game], snapshot_row)?;
    Ok(rows)
}

/// Stores the state after `ply` actions, with its checksum over the game, the ply, the log's
/// chain at that ply (the action at `ply` must be written first) and the state.
pub fn insert_snapshot(conn: &impl Db, game: GameId, ply: u32, state: &str, at: i64) -> Result<()> {
    let conn = conn.link();
    let chain = match ply {
        0 => None,
        _ => stored_chain(&conn, game, ply)?,
    };
    // Read here rather than passed in, so that the checksum covers the row as stored (one
    // indexed read, every 25th ply).
    let (settings, seed): (String, Option<i64>) = conn.query_one(
        "SELECT settings, seed FROM games WHERE id = ?1",
        params![game],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let owner = digest::Owner {
        game,
        seed: seed.map(from_sql),
        settings: &settings,
    };
    let checksum = digest::snapshot_checksum(owner, ply, chain.as_deref(), state);
    // An upsert (what SQLite's `INSERT OR REPLACE` did here, in words PostgreSQL shares).
    conn.execute(
        "INSERT INTO snapshots (game_id, ply, state, created_at, checksum) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, ply) DO UPDATE SET \
         state = excluded.state, created_at = excluded.created_at, checksum = excluded.checksum",
        params![game, ply, state, at, &checksum[..]],
    )?;
    Ok(())
}
