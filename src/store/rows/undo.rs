//! Requests to take moves back by consent (issue 42).

use super::super::sql::params;
use super::sql::{teams_of_text, teams_text};

use super::super::{Db, Result};
use super::*;
use crate::engine::Team;

/// A game's open request to take moves back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndoRequestRow {
    pub game_id: GameId,
    /// The team whose player asked.
    pub team: Team,
    pub user_id: UserId,
    /// The log's ply when it was asked: an action since voids the request.
    pub at_ply: u32,
    /// The ply the game goes back to if everyone agrees.
    pub back_to: u32,
    pub requested_at: i64,
    /// The teams that agreed, the asker's first.
    pub accepted: Vec<Team>,
}

pub fn get_undo_request(conn: &impl Db, game: GameId) -> Result<Option<UndoRequestRow>> {
    let conn = conn.link();
    let row = conn.query_opt(
        "SELECT game_id, team, user_id, at_ply, back_to, requested_at, accepted \
         FROM undo_requests WHERE game_id = ?1",
        params![game],
        |r| {
            Ok((
                UndoRequestRow {
                    game_id: r.get(0)?,
                    team: r.get(1)?,
                    user_id: r.get(2)?,
                    at_ply: r.get(3)?,
                    back_to: r.get(4)?,
                    requested_at: r.get(5)?,
                    accepted: Vec::new(),
                },
                r.get::<String>(6)?,
            ))
        },
    )?;
    let Some((mut request, accepted)) = row else {
        return Ok(None);
    };
    request.accepted = teams_of_text(&accepted, "undo votes")?;
    Ok(Some(request))
}

pub fn put_undo_request(conn: &impl Db, u: &UndoRequestRow) -> Result<()> {
    let conn = conn.link();
    let accepted = teams_text(&u.accepted);
    conn.execute(
        "INSERT INTO undo_requests (game_id, team, user_id, at_ply, back_to, requested_at, \
         accepted) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (game_id) DO UPDATE SET \
         team = ?2, user_id = ?3, at_ply = ?4, back_to = ?5, requested_at = ?6, accepted = ?7",
        params![
            u.game_id,
            u.team,
            u.user_id,
            u.at_ply,
            u.back_to,
            u.requested_at,
            accepted
        ],
    )?;
    Ok(())
}

pub fn delete_undo_request(conn: &impl Db, game: GameId) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM undo_requests WHERE game_id = ?1",
        params![game],
    )?;
    Ok(())
}

/// Ends a game's open request, if one is open: the team that asked (`None`: none was open).
/// One indexed delete, cheap on every move.
pub fn take_undo_request(conn: &impl Db, game: GameId) -> Result<Option<Team>> {
    let conn = conn.link();
    conn.query_opt(
        "DELETE FROM undo_requests WHERE game_id = ?1 RETURNING team",
        params![game],
        |r| r.get(0),
    )
}
