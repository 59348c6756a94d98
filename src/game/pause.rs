//! Pauses by vote, and more time for one turn.
//!
//! Any player proposes a pause (no longer than the server allows); the others answer with the
//! buttons under the proposal: in a duel both must agree, in a game of three or four a
//! majority of the people playing (bots do not vote). A proposal nobody finishes lapses after
//! a day. While a game is paused its clock stops: the deadline of the turn on hand moves on by
//! the pause's length, and a turn that begins during the pause has its full time from the
//! pause's end. Moves are still allowed (nothing is lost by playing). The pause ends by itself.
//!
//! The owner of a game or a member who manages the server can also give the player on turn
//! more time (`/jackal extend`).

use super::Needs;
use super::lobby::notice;
use super::outbox::Notice;
use super::reminder_settings::set_turn;
use super::turns::require_active;
use super::vacation::DEFAULT_MAX_PAUSE_DAYS;
use super::{Actor, GameService, Loaded, Result, ServiceError};
use crate::engine::{Players, Team};
use crate::id::{GameId, UserId};
use crate::store::Db;
use crate::store::{self, PauseRow, TimerKind};

/// How long a proposal waits for its votes.
pub const VOTE_MS: i64 = 86_400_000;

const DAY_MS: i64 = 86_400_000;

/// Where a vote left the proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseVote {
    /// More votes are needed: `accepted` of `needed` so far.
    Waiting { accepted: usize, needed: usize },
    /// The pause runs until then.
    Started { until_ms: i64 },
    /// The proposal was turned down.
    Refused,
}

/// The teams played by people, who vote.
fn voters(loaded: &Loaded) -> Vec<Team> {
    loaded
        .seats
        .iter()
        .filter(|s| s.user_id.is_some() && !s.resigned)
        .map(|s| s.team)
        .collect()
}

/// Acceptances a proposal needs: every voter in a duel, else more than half of them.
fn needed(loaded: &Loaded) -> usize {
    let voters = voters(loaded).len();
    match loaded.config.rules.players {
        Players::Two => voters,
        _ => voters / 2 + 1,
    }
}

/// Moves the deadline of the turn on hand (a person's) by `by_ms`, with its reminders.
/// Returns the new deadline, or `None` when no person's deadline runs.
fn shift_deadline(conn: &impl Db, loaded: &Loaded, by_ms: i64, now: i64) -> Result<Option<i64>> {
    let (id, ply) = (loaded.row.id, loaded.row.ply);
    let Some(deadline) = store::deadline_at(conn, id, ply)? else {
        return Ok(None);
    };
    let Some(user) = loaded
        .game
        .as_ref()
        .and_then(|g| loaded.team_seat(g.controller()))
        .and_then(|s| s.user_id)
    else {
        return Ok(None);
    };
    let moved = deadline + by_ms;
    set_turn(conn, id, ply, &loaded.config, user, moved, now)?;
    Ok(Some(moved))
}

impl GameService {
    /// The end of `id`'s running pause, if it is paused now.
    pub fn paused_until(&self, id: GameId) -> Result<Option<i64>> {
        let conn = self.store.conn()?;
        Ok(store::paused_until(&conn, id, self.now())?)
    }

    /// `user` proposes to pause `id` for `length_ms`; their own vote counts for it.
    pub fn propose_pause(&self, user: UserId, id: GameId, length_ms: i64) -> Result<PauseVote> {
        let now = self.now();
        self.write(id, Needs::Running, |tx, loaded| {
            let team = loaded
                .seat_of(user)
                .ok_or(ServiceError::NotYourGame(id))?
                .team;
            let max_days = match loaded.row.guild_id {
                Some(guild) => store::guild_limits(tx, guild)?
                    .max_pause_days
                    .unwrap_or(DEFAULT_MAX_PAUSE_DAYS),
                None => DEFAULT_MAX_PAUSE_DAYS,
            };
            if length_ms <= 0 || length_ms > max_days as i64 * DAY_MS {
                return Err(ServiceError::PauseTooLong { max_days });
            }
            if let Some(pause) = store::get_pause(tx, id)? {
                return Err(match pause.ends_at {
                    Some(until) => ServiceError::AlreadyPaused { until_ms: until },
                    None => ServiceError::PauseProposed(id),
                });
            }
            let pause = PauseRow {
                game_id: id,
                proposer: team,
                length_ms,
                proposed_at: now,
                accepted: vec![team],
                refused: Vec::new(),
                ends_at: None,
            };
            let proposed = Notice::PauseProposed { team, length_ms };
            notice(tx, &loaded.row, proposed, now)?;
            let outcome = self.settle(tx, loaded, pause, now)?;
            Ok(outcome)
        })
    }

    /// `user`'s vote on the pause proposed in `id`.
    pub fn vote_pause(&self, user: UserId, id: GameId, yes: bool) -> Result<PauseVote> {
        let now = self.now();
        self.write(id, Needs::Running, |tx, loaded| {
            let team = loaded
                .seat_of(user)
                .ok_or(ServiceError::NotYourGame(id))?
                .team;
            let mut pause = store::get_pause(tx, id)?
                .filter(|p| p.ends_at.is_none())
                .ok_or(ServiceError::NoPauseProposed(id))?;
            if pause.accepted.contains(&team) || pause.refused.contains(&team) {
                return Err(ServiceError::AlreadyVoted(id));
            }
            if yes {
                pause.accepted.push(team);
            } else {
                pause.refused.push(team);
            }
            let outcome = self.settle(tx, loaded, pause, now)?;
            Ok(outcome)
        })
    }

    /// Stores the proposal after a vote, or starts or drops it once the votes decide.
    fn settle(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        mut pause: PauseRow,
        now: i64,
    ) -> Result<PauseVote> {
        let id = loaded.row.id;
        let needed = needed(loaded);
        let voters = voters(loaded).len();
        if pause.accepted.len() >= needed {
            let until = now + pause.length_ms;
            pause.ends_at = Some(until);
            store::put_pause(tx, &pause)?;
            store::drop_game_timer(tx, id, TimerKind::PauseVote)?;
            store::set_game_timer(tx, id, TimerKind::PauseEnd, until)?;
            shift_deadline(tx, loaded, pause.length_ms, now)?;
            let started = Notice::PauseStarted {
                team: pause.proposer,
                until_ms: until,
            };
            notice(tx, &loaded.row, started, now)?;
            return Ok(PauseVote::Started { until_ms: until });
        }
        if voters - pause.refused.len() < needed {
            store::delete_pause(tx, id)?;
            store::drop_game_timer(tx, id, TimerKind::PauseVote)?;
            let team = pause.refused.last().copied().unwrap_or(pause.proposer);
            notice(tx, &loaded.row, Notice::PauseRefused { team }, now)?;
            return Ok(PauseVote::Refused);
        }
        store::put_pause(tx, &pause)?;
        store::set_game_timer(tx, id, TimerKind::PauseVote, pause.proposed_at + VOTE_MS)?;
        Ok(PauseVote::Waiting {
            accepted: pause.accepted.len(),
            needed,
        })
    }

    /// A pause timer came due: a proposal lapses, or a pause ends.
    pub(super) fn pause_timer(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        kind: TimerKind,
        now: i64,
    ) -> Result<bool> {
        let id = loaded.row.id;
        let Some(pause) = store::get_pause(tx, id)? else {
            return Ok(false);
        };
        match (kind, pause.ends_at) {
            (TimerKind::PauseVote, None) if now >= pause.proposed_at + VOTE_MS => {
                store::delete_pause(tx, id)?;
                let lapsed = Notice::PauseLapsed {
                    team: pause.proposer,
                };
                notice(tx, &loaded.row, lapsed, now)?;
                Ok(true)
            }
            (TimerKind::PauseEnd, Some(until)) if now >= until => {
                store::delete_pause(tx, id)?;
                let over = Notice::PauseOver {
                    team: pause.proposer,
                };
                notice(tx, &loaded.row, over, now)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Gives the player on turn in `id` `by_ms` more time (the owner, or a server admin).
    /// Returns the new deadline.
    pub fn extend_deadline(&self, actor: Actor, id: GameId, by_ms: i64) -> Result<i64> {
        let now = self.now();
        self.write(id, Needs::Running, |tx, loaded| {
            let game = require_active(loaded)?;
            if actor.user != loaded.row.owner_id && !actor.admin {
                return Err(ServiceError::NotOwner);
            }
            if by_ms < 3_600_000 || by_ms > super::config::MAX_TURN_SECONDS as i64 * 1000 {
                return Err(ServiceError::BadExtension);
            }
            let team = game.controller();
            let deadline =
                shift_deadline(tx, loaded, by_ms, now)?.ok_or(ServiceError::NoDeadline(id))?;
            let extended = Notice::Extended {
                team,
                deadline_ms: deadline,
            };
            notice(tx, &loaded.row, extended, now)?;
            Ok(deadline)
        })
    }
}
