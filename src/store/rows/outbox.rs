//! The outbox: what is to be sent, and what became of it.

use super::super::sql::{Params, params};

use super::super::{Db, Result};
use super::lease::claimable;
use super::*;

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
    /// The process sending it, and until when (see [`claim_outbox`]).
    pub claimed_by: Option<String>,
    pub claimed_until: Option<i64>,
}

pub fn insert_outbox(
    conn: &impl Db,
    game: Option<GameId>,
    kind: &str,
    target: &str,
    payload: &str,
    at: i64,
) -> Result<i64> {
    let conn = conn.link();
    // `RETURNING` rather than the connection's last rowid: PostgreSQL has no such thing.
    conn.query_one(
        "INSERT INTO outbox (game_id, kind, target, payload, created_at, next_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?5) RETURNING id",
        params![game, kind, target, payload, at],
        |r| r.get(0),
    )
}

fn outbox_query(conn: &impl Db, filter: &str, p: Params) -> Result<Vec<OutboxRow>> {
    let conn = conn.link();
    outbox_query_limited(&conn, filter, "", p)
}

/// [`outbox_query`] with a `LIMIT` clause (or none, for `""`).
fn outbox_query_limited(
    conn: &impl Db,
    filter: &str,
    limit: &str,
    p: Params,
) -> Result<Vec<OutboxRow>> {
    let conn = conn.link();
    let sql = format!(
        "SELECT id, game_id, kind, target, payload, attempts, created_at, next_at, sent_at, \
         last_error, given_up, claimed_by, claimed_until FROM outbox {filter} ORDER BY id \
         {limit}"
    );
    let rows = conn.query_many(&sql, p, |r| {
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
            given_up: r.get::<i64>(10)? != 0,
            claimed_by: r.get(11)?,
            claimed_until: r.get(12)?,
        })
    })?;
    Ok(rows)
}

/// Unsent messages whose backoff has passed, oldest first.
pub fn pending_outbox(conn: &impl Db, now: i64) -> Result<Vec<OutboxRow>> {
    let conn = conn.link();
    outbox_query(
        &conn,
        "WHERE sent_at IS NULL AND next_at <= ?1",
        params![now],
    )
}

/// Up to `limit` unsent messages after row `after`, oldest first, backoff or not: a page of
/// the backlog, walked through its own index (see migration 0010).
pub fn unsent_outbox_page(conn: &impl Db, after: i64, limit: usize) -> Result<Vec<OutboxRow>> {
    let conn = conn.link();
    outbox_query_limited(
        &conn,
        "INDEXED BY outbox_unsent WHERE sent_at IS NULL AND id > ?1",
        "LIMIT ?2",
        params![after, limit as i64],
    )
}

pub fn game_outbox(conn: &impl Db, game: GameId) -> Result<Vec<OutboxRow>> {
    let conn = conn.link();
    outbox_query(&conn, "WHERE game_id = ?1", params![game])
}

pub fn mark_outbox_sent(conn: &impl Db, id: i64, at: i64) -> Result<bool> {
    let conn = conn.link();
    Ok(conn.execute(
        "UPDATE outbox SET sent_at = ?2 WHERE id = ?1 AND sent_at IS NULL",
        params![id, at],
    )? == 1)
}

/// Closes a row the sender will never deliver (it stays, with why, for the record).
pub fn mark_outbox_given_up(conn: &impl Db, id: i64, error: &str, at: i64) -> Result<bool> {
    let conn = conn.link();
    Ok(conn.execute(
        "UPDATE outbox SET given_up = 1, sent_at = ?3, last_error = ?2, \
             attempts = attempts + 1 WHERE id = ?1 AND sent_at IS NULL",
        params![id, error, at],
    )? == 1)
}

/// When the earliest unsent row may be sent by `holder`: after its backoff, and after another
/// process's lease on it.
pub fn next_outbox_due(conn: &impl Db, holder: &str) -> Result<Option<i64>> {
    let conn = conn.link();
    conn.query_one(
        "SELECT MIN(CASE WHEN claimed_by <> ?1 AND claimed_until > next_at THEN claimed_until \
         ELSE next_at END) FROM outbox WHERE sent_at IS NULL",
        params![holder],
        |r| r.get(0),
    )
}

/// Claims an unsent row for `lease.holder` until `lease.until`; false if it was sent, or is
/// held by another process's lease that has not lapsed. Claims are taken row by row, in the
/// order the rows are sent: a process that could not claim a game's row sends none after it.
pub fn claim_outbox(conn: &impl Db, id: i64, lease: Lease<'_>) -> Result<bool> {
    let changed = conn.link().execute(
        concat!(
            "UPDATE outbox SET claimed_by = ?2, claimed_until = ?4 WHERE id = ?1 \
             AND sent_at IS NULL AND ",
            claimable!("2", "3")
        ),
        params![id, lease.holder, lease.now, lease.until],
    )?;
    Ok(changed == 1)
}

/// Lets go of `holder`'s claim on an unsent row it will not send now (an earlier row of its
/// game must wait), so that no process waits for the lease to lapse.
pub fn release_outbox(conn: &impl Db, id: i64, holder: &str) -> Result<()> {
    conn.link().execute(
        "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE id = ?1 \
         AND claimed_by = ?2 AND sent_at IS NULL",
        params![id, holder],
    )?;
    Ok(())
}

/// Records `holder`'s failed send and when to try again (by any process: the claim is let
/// go). Nothing is recorded when another process holds the row now (it took the row over
/// after `holder`'s lease lapsed, and is sending it).
pub fn mark_outbox_failed(
    conn: &impl Db,
    id: i64,
    error: &str,
    retry_at: i64,
    holder: &str,
) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_at = ?3, \
         claimed_by = NULL, claimed_until = NULL WHERE id = ?1 \
         AND (claimed_by IS NULL OR claimed_by = ?4)",
        params![id, error, retry_at, holder],
    )?;
    Ok(())
}
