//! Paused games.

use super::super::sql::params;
use super::sql::{teams_of_text, teams_text};

use super::super::{Db, Result};
use super::*;
use crate::engine::Team;

/// A game's pause: proposed (no `ends_at` yet) or running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PauseRow {
    pub game_id: GameId,
    /// The team that proposed it.
    pub proposer: Team,
    pub length_ms: i64,
    pub proposed_at: i64,
    /// The teams that accepted (the proposer among them).
    pub accepted: Vec<Team>,
    /// The teams that voted against.
    pub refused: Vec<Team>,
    pub ends_at: Option<i64>,
}

pub fn get_pause(conn: &impl Db, game: GameId) -> Result<Option<PauseRow>> {
    let conn = conn.link();
    let row = conn.query_opt(
        "SELECT game_id, proposer, length_ms, proposed_at, accepted, ends_at, refused \
             FROM pauses WHERE game_id = ?1",
        params![game],
        |r| {
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
                r.get::<String>(4)?,
                r.get::<String>(6)?,
            ))
        },
    )?;
    let Some((mut pause, accepted, refused)) = row else {
        return Ok(None);
    };
    pause.accepted = teams_of_text(&accepted, "pause votes")?;
    pause.refused = teams_of_text(&refused, "pause votes")?;
    Ok(Some(pause))
}

pub fn put_pause(conn: &impl Db, p: &PauseRow) -> Result<()> {
    let conn = conn.link();
    let accepted = teams_text(&p.accepted);
    let refused = teams_text(&p.refused);
    conn.execute(
        "INSERT INTO pauses (game_id, proposer, length_ms, proposed_at, accepted, ends_at, \
         refused) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (game_id) DO UPDATE SET \
         proposer = ?2, length_ms = ?3, proposed_at = ?4, accepted = ?5, ends_at = ?6, \
         refused = ?7",
        params![
            p.game_id,
            p.proposer,
            p.length_ms,
            p.proposed_at,
            accepted,
            p.ends_at,
            refused
        ],
    )?;
    Ok(())
}

pub fn delete_pause(conn: &impl Db, game: GameId) -> Result<()> {
    let conn = conn.link();
    conn.execute("DELETE FROM pauses WHERE game_id = ?1", params![game])?;
    Ok(())
}

/// The end of the game's running pause, if one runs at `now`.
pub fn paused_until(conn: &impl Db, game: GameId, now: i64) -> Result<Option<i64>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT ends_at FROM pauses WHERE game_id = ?1 AND ends_at > ?2",
        params![game, now],
        |r| r.get(0),
    )
}
