//! Finding games: a user's, a channel's, and the one a command means when it names none.

use super::view::ListedGame;
use super::{GameService, GameView, Result, ServiceError};
use crate::id::{ChannelId, GameId, UserId};
use crate::store;

impl GameService {
    /// The games a user sits in (lobbies and running games only, unless `all`), oldest first.
    pub fn my_games(&self, user: UserId, all: bool) -> Result<Vec<ListedGame>> {
        let conn = self.store.conn()?;
        let rows = store::games_of_user(&conn, user, !all)?;
        Ok(rows.iter().map(ListedGame::of).collect())
    }

    /// Lobbies and running games in a channel or thread.
    pub fn games_here(&self, channel: ChannelId) -> Result<Vec<ListedGame>> {
        let conn = self.store.conn()?;
        let rows = store::games_in_channel(&conn, channel)?;
        Ok(rows.iter().map(ListedGame::of).collect())
    }

    /// A user's lobbies and running games as they stand, each with its running deadline. A
    /// damaged game (logged) is left out, so that it does not hide the others.
    pub fn my_games_now(&self, user: UserId) -> Result<Vec<(GameView, Option<i64>)>> {
        let conn = self.store.conn()?;
        let mut out = Vec::new();
        for row in store::games_of_user(&conn, user, true)? {
            let loaded = match self.load_on(&conn, row.id) {
                Err(e @ ServiceError::Damaged { .. }) => {
                    tracing::error!(game = %row.id, error = %e, "a damaged game was left out of a list");
                    continue;
                }
                other => other?,
            };
            let deadline = store::running_deadline(&conn, row.id)?;
            out.push((GameView::of(loaded), deadline));
        }
        Ok(out)
    }

    /// The game a command in `channel` is about when it names none: the caller's one game
    /// there (with `any_here`, also the one game there the caller does not play in, for
    /// admins); in a thread with no open game, the caller's latest game played there (a game
    /// that ended keeps its thread, where its board and history are still asked for).
    pub fn which_game(&self, user: UserId, channel: ChannelId, any_here: bool) -> Result<GameId> {
        let conn = self.store.conn()?;
        let here = store::games_in_channel(&conn, channel)?;
        let mut mine = Vec::new();
        for row in &here {
            // Seats only: a game here whose stored state is damaged must not stop every
            // command in the channel (the command on that game then says what is wrong).
            if store::seats(&conn, row.id)?
                .iter()
                .any(|seat| seat.user_id == Some(user))
            {
                mine.push(row.id);
            }
        }
        match (mine.as_slice(), here.as_slice()) {
            ([one], _) => Ok(*one),
            ([], [one]) if any_here => Ok(one.id),
            ([], []) => store::games_of_user(&conn, user, false)?
                .into_iter()
                .filter(|g| g.thread_id == Some(channel))
                .map(|g| g.id)
                .next_back()
                .ok_or(ServiceError::NoGameHere),
            ([], _) => Err(ServiceError::NoGameHere),
            (many, _) => Err(ServiceError::WhichGame(many.to_vec())),
        }
    }
}
