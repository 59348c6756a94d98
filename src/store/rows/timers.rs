//! Timers: games' deadlines, reminders and bot turns, and users' own (vacations, digests).

use super::super::sql::{ColumnError, FromValue, Params, Value, params, text_column};

use super::super::{Db, Result, StoreError};
use super::lease::claimable;
use super::*;

impl FromValue for TimerKind {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        text_column(value, TimerKind::parse)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// A request to take moves back that the other players did not answer in time lapses.
    UndoVote,
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
            TimerKind::UndoVote => "undo_vote",
        }
    }

    fn parse(text: &str) -> Result<TimerKind> {
        match text {
            "deadline" => Ok(TimerKind::Deadline),
            "reminder" => Ok(TimerKind::Reminder),
            "bot" => Ok(TimerKind::Bot),
            "pause_vote" => Ok(TimerKind::PauseVote),
            "pause_end" => Ok(TimerKind::PauseEnd),
            "undo_vote" => Ok(TimerKind::UndoVote),
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
    let conn = conn.link();
    // `macro_rules` keeps the shared clause in one place and the SQL a constant (the
    // statement cache is keyed by its text).
    macro_rules! upsert {
        ($values:literal) => {
            concat!(
                "INSERT INTO timers (game_id, kind, slot, ply, due_at) VALUES ",
                $values,
                " ON CONFLICT (game_id, kind, slot) DO UPDATE SET ply = excluded.ply, \
                 due_at = excluded.due_at, fired_at = NULL, claimed_by = NULL, \
                 claimed_until = NULL"
            )
        };
    }
    conn.execute(
        "DELETE FROM timers WHERE game_id = ?1 AND kind = 'bot'",
        params![game],
    )?;
    match reminders {
        // The usual turn, one reminder: one statement for both rows.
        [at] => {
            conn.execute(
                upsert!("(?1, 'deadline', 0, ?2, ?3), (?1, 'reminder', 0, ?2, ?4)"),
                params![game, ply, deadline, at],
            )?;
        }
        _ => {
            conn.execute(
                upsert!("(?1, 'deadline', 0, ?2, ?3)"),
                params![game, ply, deadline],
            )?;
            for (slot, at) in reminders.iter().take(MAX_REMINDERS).enumerate() {
                conn.execute(
                    upsert!("(?1, 'reminder', ?2, ?3, ?4)"),
                    params![game, slot as i64, ply, at],
                )?;
            }
        }
    }
    conn.execute(
        "DELETE FROM timers WHERE game_id = ?1 AND kind = 'reminder' AND slot >= ?2",
        params![game, reminders.len().min(MAX_REMINDERS) as i64],
    )?;
    Ok(())
}

/// Sets the timer of a bot's turn at `ply` (in place of a human's deadline and reminders).
pub fn set_bot_timer(conn: &impl Db, game: GameId, ply: u32, due: i64) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM timers WHERE game_id = ?1 AND kind IN ('deadline', 'reminder')",
        params![game],
    )?;
    conn.execute(
        "INSERT INTO timers (game_id, kind, slot, ply, due_at) VALUES (?1, 'bot', 0, ?2, ?3) \
         ON CONFLICT (game_id, kind, slot) DO UPDATE SET ply = excluded.ply, \
         due_at = excluded.due_at, fired_at = NULL, claimed_by = NULL, claimed_until = NULL",
        params![game, ply, due],
    )?;
    Ok(())
}

/// Sets a game's timer of `kind` (a pause's), whatever turn it is.
pub fn set_game_timer(conn: &impl Db, game: GameId, kind: TimerKind, due: i64) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO timers (game_id, kind, slot, ply, due_at) VALUES (?1, ?2, 0, 0, ?3) \
         ON CONFLICT (game_id, kind, slot) DO UPDATE SET due_at = excluded.due_at, \
         fired_at = NULL, claimed_by = NULL, claimed_until = NULL",
        params![game, kind.as_str(), due],
    )?;
    Ok(())
}

/// Drops a game's timer of `kind` (a pause's).
pub fn drop_game_timer(conn: &impl Db, game: GameId, kind: TimerKind) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM timers WHERE game_id = ?1 AND kind = ?2",
        params![game, kind.as_str()],
    )?;
    Ok(())
}

/// Drops the game's timers (the game ended).
pub fn clear_timers(conn: &impl Db, game: GameId) -> Result<()> {
    let conn = conn.link();
    conn.execute("DELETE FROM timers WHERE game_id = ?1", params![game])?;
    Ok(())
}

const TIMER_COLUMNS: &str = "game_id, kind, slot, ply, due_at, fired_at";

fn timers_query(conn: &impl Db, sql: &str, p: Params) -> Result<Vec<TimerRow>> {
    let conn = conn.link();
    let rows = conn.query_many(sql, p, |r| {
        Ok(TimerRow {
            game_id: r.get(0)?,
            kind: r.get(1)?,
            slot: r.get(2)?,
            ply: r.get(3)?,
            due_at: r.get(4)?,
            fired_at: r.get(5)?,
        })
    })?;
    Ok(rows)
}

/// Up to `limit` timers due at `lease.now` that have not fired and that `lease.holder` may
/// claim (see [`claim_timer`]), earliest first, after `after` in that order (a page of them).
pub fn claimable_timers(
    conn: &impl Db,
    lease: Lease<'_>,
    after: Option<&TimerRow>,
    limit: usize,
) -> Result<Vec<TimerRow>> {
    let conn = conn.link();
    let sql = format!(
        "SELECT {TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ?1 AND {} \
         AND (due_at, game_id, kind, slot) > (?4, ?5, ?6, ?7) \
         ORDER BY due_at, game_id, kind, slot LIMIT ?3",
        claimable!("2", "1")
    );
    // Before every row: no game has id 0, and every kind sorts after ''.
    let (due, game, kind, slot) = match after {
        Some(t) => (
            t.due_at,
            t.game_id.get(),
            t.kind.as_str(),
            i64::from(t.slot),
        ),
        None => (i64::MIN, 0, "", -1),
    };
    timers_query(
        &conn,
        &sql,
        params![lease.now, lease.holder, limit as i64, due, game, kind, slot],
    )
}

/// Claims a due timer for `lease.holder` until `lease.until`; false if it fired, was replaced
/// by a later turn's, or is held by another process's lease that has not lapsed.
pub fn claim_timer(conn: &impl Db, timer: &TimerRow, lease: Lease<'_>) -> Result<bool> {
    let key = (timer.game_id, timer.kind.as_str(), timer.slot, timer.ply);
    let changed = conn.link().execute(
        concat!(
            "UPDATE timers SET claimed_by = ?5, claimed_until = ?7 WHERE game_id = ?1 \
             AND kind = ?2 AND slot = ?3 AND ply = ?4 AND due_at = ?8 AND fired_at IS NULL \
             AND ",
            claimable!("5", "6")
        ),
        params![
            key.0,
            key.1,
            key.2,
            key.3,
            lease.holder,
            lease.now,
            lease.until,
            timer.due_at
        ],
    )?;
    Ok(changed == 1)
}

/// Whether `lease.holder` still holds its claim on `timer`, as it was read (not fired, not
/// replaced, not taken over by another process after its lease lapsed); if so, the claim is
/// renewed to `lease.until`. A firing asks this inside the game's write before it acts, so a
/// timer is acted on once however late its firing comes.
pub fn still_claimed(conn: &impl Db, timer: &TimerRow, lease: Lease<'_>) -> Result<bool> {
    let key = (timer.game_id, timer.kind.as_str(), timer.slot, timer.ply);
    let changed = conn.link().execute(
        "UPDATE timers SET claimed_until = ?6 WHERE game_id = ?1 AND kind = ?2 AND slot = ?3 \
         AND ply = ?4 AND due_at = ?7 AND fired_at IS NULL AND claimed_by = ?5",
        params![
            key.0,
            key.1,
            key.2,
            key.3,
            lease.holder,
            lease.until,
            timer.due_at
        ],
    )?;
    Ok(changed == 1)
}

pub fn game_timers(conn: &impl Db, game: GameId) -> Result<Vec<TimerRow>> {
    let conn = conn.link();
    let sql = format!(
        "SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ?1 ORDER BY due_at, kind, slot"
    );
    timers_query(&conn, &sql, params![game])
}

/// The earliest time a pending timer may be fired by `holder` (a game's or a player's), for
/// the scheduler's sleep: its due time, or when another process's lease on it lapses.
pub fn next_timer_due(conn: &impl Db, holder: &str) -> Result<Option<i64>> {
    let conn = conn.link();
    conn.query_one(
        "SELECT MIN(due) FROM (\
         SELECT MIN(CASE WHEN claimed_by <> ?1 AND claimed_until > due_at THEN claimed_until \
         ELSE due_at END) AS due FROM timers WHERE fired_at IS NULL \
         UNION ALL SELECT MIN(CASE WHEN claimed_by <> ?1 AND claimed_until > due_at \
         THEN claimed_until ELSE due_at END) FROM user_timers WHERE fired_at IS NULL) AS pending",
        params![holder],
        |r| r.get(0),
    )
}

/// Moves a pending timer to `due` (a reminder that waits for the end of quiet hours); false
/// if it fired meanwhile or was replaced by a later turn's.
pub fn postpone_timer(conn: &impl Db, timer: &TimerRow, due: i64) -> Result<bool> {
    // Literal statements, so that each is prepared once per connection.
    update_unfired(
        conn,
        timer,
        due,
        "UPDATE timers SET due_at = ?5, claimed_by = NULL, claimed_until = NULL \
         WHERE game_id = ?1 AND kind = ?2 AND slot = ?3 AND ply = ?4 AND due_at = ?6 \
         AND fired_at IS NULL",
    )
}

/// Marks a timer fired; false if it already had, or was replaced by a later turn's.
pub fn mark_timer_fired(conn: &impl Db, timer: &TimerRow, at: i64) -> Result<bool> {
    update_unfired(
        conn,
        timer,
        at,
        "UPDATE timers SET fired_at = ?5 WHERE game_id = ?1 AND kind = ?2 AND slot = ?3 \
         AND ply = ?4 AND due_at = ?6 AND fired_at IS NULL",
    )
}

/// Runs `sql`, which sets one column of `timer`'s row to `value` (`?5`) if the timer is as it
/// was read (`?6`: its due time) and has not fired: whether it was.
fn update_unfired(conn: &impl Db, timer: &TimerRow, value: i64, sql: &'static str) -> Result<bool> {
    let key = (timer.game_id, timer.kind.as_str(), timer.slot, timer.ply);
    let changed = conn.link().execute(
        sql,
        params![key.0, key.1, key.2, key.3, value, timer.due_at],
    )?;
    Ok(changed == 1)
}

/// The unfired deadline of a game's turn at `ply`, if it has one.
pub fn deadline_at(conn: &impl Db, game: GameId, ply: u32) -> Result<Option<i64>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT due_at FROM timers WHERE game_id = ?1 AND kind = 'deadline' AND slot = 0 \
             AND ply = ?2 AND fired_at IS NULL",
        params![game, ply],
        |r| r.get(0),
    )
}

/// The deadline running in a game now, whichever ply it was set for.
pub fn running_deadline(conn: &impl Db, game: GameId) -> Result<Option<i64>> {
    let conn = conn.link();
    conn.query_one(
        "SELECT MIN(due_at) FROM timers WHERE game_id = ?1 AND kind = 'deadline' \
             AND fired_at IS NULL",
        params![game],
        |r| r.get(0),
    )
}

/// A player's timer (not a game's): the daily digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

impl FromValue for UserTimerKind {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        text_column(value, |text| match text {
            "digest" => Ok(UserTimerKind::Digest),
            other => Err(StoreError::Corrupt(format!("user timer kind `{other}`"))),
        })
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
    let conn = conn.link();
    conn.execute(
        "INSERT INTO user_timers (user_id, kind, due_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (user_id, kind) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL, \
         claimed_by = NULL, claimed_until = NULL",
        params![user, kind.as_str(), due],
    )?;
    Ok(())
}

pub fn drop_user_timer(conn: &impl Db, user: UserId, kind: UserTimerKind) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM user_timers WHERE user_id = ?1 AND kind = ?2",
        params![user, kind.as_str()],
    )?;
    Ok(())
}

/// Up to `limit` players' timers due at `lease.now` that have not fired and that
/// `lease.holder` may claim, earliest first.
pub fn claimable_user_timers(
    conn: &impl Db,
    lease: Lease<'_>,
    limit: usize,
) -> Result<Vec<UserTimerRow>> {
    let conn = conn.link();
    let rows = conn.query_many(
        concat!(
            "SELECT user_id, kind, due_at FROM user_timers WHERE fired_at IS NULL \
             AND due_at <= ?1 AND ",
            claimable!("2", "1"),
            " ORDER BY due_at, user_id, kind LIMIT ?3"
        ),
        params![lease.now, lease.holder, limit as i64],
        |r| {
            Ok(UserTimerRow {
                user_id: r.get(0)?,
                kind: r.get(1)?,
                due_at: r.get(2)?,
            })
        },
    )?;
    Ok(rows)
}

/// [`claim_timer`] for a player's timer.
pub fn claim_user_timer(conn: &impl Db, timer: &UserTimerRow, lease: Lease<'_>) -> Result<bool> {
    let changed = conn.link().execute(
        concat!(
            "UPDATE user_timers SET claimed_by = ?4, claimed_until = ?6 WHERE user_id = ?1 \
             AND kind = ?2 AND due_at = ?3 AND fired_at IS NULL AND ",
            claimable!("4", "5")
        ),
        params![
            timer.user_id,
            timer.kind.as_str(),
            timer.due_at,
            lease.holder,
            lease.now,
            lease.until
        ],
    )?;
    Ok(changed == 1)
}

pub fn user_timer(conn: &impl Db, user: UserId, kind: UserTimerKind) -> Result<Option<i64>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT due_at FROM user_timers WHERE user_id = ?1 AND kind = ?2 AND fired_at IS NULL",
        params![user, kind.as_str()],
        |r| r.get(0),
    )
}

/// Marks a player's timer fired; false if it already had or was moved since it was read.
pub fn mark_user_timer_fired(conn: &impl Db, timer: &UserTimerRow, at: i64) -> Result<bool> {
    let conn = conn.link();
    Ok(conn.execute(
        "UPDATE user_timers SET fired_at = ?4 WHERE user_id = ?1 AND kind = ?2 \
             AND due_at = ?3 AND fired_at IS NULL",
        params![timer.user_id, timer.kind.as_str(), timer.due_at, at],
    )? == 1)
}
