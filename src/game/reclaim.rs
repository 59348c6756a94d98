//! Taking a seat back: a player whose seat a bot took after too many missed deadlines may
//! sit down again, with one click, while the game runs. The bot's turn, if it is on turn,
//! becomes the player's, with a fresh deadline.

use super::Needs;
use super::lobby::notice;
use super::outbox::Notice;
use super::turns::require_active;
use super::{GameService, Result, ServiceError};
use crate::id::{GameId, UserId};
use crate::store::{self, SeatRow};

impl GameService {
    /// Gives `user` back the seat a bot took from them; returns its team.
    pub fn reclaim_seat(&self, user: UserId, id: GameId) -> Result<crate::engine::Team> {
        let now = self.now();
        self.write(id, Needs::Running, |tx, loaded| {
            let game = require_active(loaded)?;
            if loaded.seat_of(user).is_some() {
                return Err(ServiceError::AlreadySeated(id));
            }
            let seat = loaded
                .seats
                .iter()
                .find(|s| s.away_user_id == Some(user) && s.user_id.is_none() && !s.resigned)
                .ok_or(ServiceError::NothingToReclaim(id))?;
            let back = SeatRow {
                user_id: Some(user),
                bot_level: None,
                missed_deadlines: 0,
                away_user_id: None,
                ..seat.clone()
            };
            store::put_seat(tx, &back)?;
            let team = back.team;
            if game.controller() == team {
                let mut after = loaded.clone();
                if let Some(s) = after.seats.iter_mut().find(|s| s.team == team) {
                    *s = back;
                }
                self.schedule_turn(tx, &after, game, now, true)?;
            }
            notice(tx, &loaded.row, Notice::Reclaimed { team }, now)?;
            Ok(team)
        })
    }
}
