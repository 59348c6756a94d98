//! Undo by consent (issue 42): a player asks to take back their last move, and the other
//! people at the table agree or refuse with the buttons under the request.
//!
//! A move may be taken back only while taking it back hides nothing a player has seen: no
//! tile was opened by it or after it (by a unit, a cannonball or the lighthouse), no earthquake
//! swapped tiles, and no bot or deadline played since — a bot's move is not anyone's to take
//! back. Every person seated agrees (bots do not vote); one refusal ends the request, and so
//! does any action played meanwhile (the table would no longer be taking back what it agreed
//! to). A request nobody finishes lapses after a day.
//!
//! An agreed take-back is a row of its own in the append-only log ([`TakeBack`]): the moves it
//! takes back stay there, marked in the history, so the history and the replay stay true. The
//! asker is on turn again, with a full deadline.

use super::Needs;
use super::lobby::{notice, public_target};
use super::logged::{Logged, TakeBack};
use super::outbox::{self, Notice, OutboxMessage, Target};
use super::turns::require_active;
use super::{GameService, Loaded, Result, ServiceError, replay};
use crate::engine::{Event, OpenedBy, Team};
use crate::id::{GameId, UserId};
use crate::store::{self, ActionRow, Db, TimerKind, Tx, UndoRequestRow};

/// How long a request waits for its answers.
pub const UNDO_VOTE_MS: i64 = 86_400_000;

/// What a take-back would hide again, that a player has already seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// A face-down tile was opened (by a unit or a cannonball).
    Tile,
    /// The lighthouse showed tiles.
    Lighthouse,
    /// An earthquake swapped tiles.
    Earthquake,
}

/// Why a move cannot be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoBar {
    /// The asker has played no move since the game began or since the last take-back.
    NothingToTakeBack,
    /// A move is half played (a choice waits): it is finished first.
    MidMove,
    /// The asker's move (`yours`), or one played after it, showed something hidden.
    Revealed { reveal: Reveal, yours: bool },
    /// A bot or a deadline played since the asker's move.
    BotPlayed,
}

/// Where a request stands after a vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoVote {
    /// More answers are needed: `accepted` of `needed` so far (the asker counts).
    Waiting { accepted: usize, needed: usize },
    /// Everyone agreed: the game is back at the position after `move_number` moves.
    TakenBack { move_number: u32 },
    /// Someone refused.
    Refused,
}

/// The people who answer a request from `asker`: every other person seated, not resigned.
fn voters(loaded: &Loaded, asker: Team) -> Vec<Team> {
    loaded
        .seats
        .iter()
        .filter(|s| s.user_id.is_some() && !s.resigned && s.team != asker)
        .map(|s| s.team)
        .collect()
}

/// What an action's events showed that was hidden, if anything.
fn revealed(events: &[Event]) -> Option<Reveal> {
    events.iter().find_map(|e| match e {
        Event::Quaked { .. } => Some(Reveal::Earthquake),
        Event::Opened {
            by: OpenedBy::Lighthouse,
            ..
        } => Some(Reveal::Lighthouse),
        Event::Opened { .. } => Some(Reveal::Tile),
        _ => None,
    })
}

fn stopped_for_choice(events: &[Event]) -> bool {
    matches!(events.last(), Some(Event::ChoiceRequired { .. }))
}

/// The ply the game would go back to if `user` (playing `team`) took back their last move:
/// the one before that move began. `Err` with the reason when it cannot be taken back.
fn back_to(conn: &impl Db, loaded: &Loaded, team: Team, user: UserId) -> Result<u32> {
    let id = loaded.row.id;
    let game = require_active(loaded)?;
    let bar = |bar| Err(ServiceError::Undo(bar));
    if game.pending().is_some() {
        return bar(UndoBar::MidMove);
    }
    // Nothing before the last take-back can be taken back: the moves after it are read.
    let floor = store::last_take_back(conn, id, loaded.row.ply)?.map_or(0, |(at, _)| at);
    let rows = store::actions_after(conn, id, floor)?;
    let events: Vec<Vec<Event>> = rows
        .iter()
        .map(|r| serde_json::from_str(&r.events).unwrap_or_default())
        .collect();
    let Some(last) = rows
        .iter()
        .rposition(|r| r.user_id == Some(user) && r.team == team.number())
    else {
        return bar(UndoBar::NothingToTakeBack);
    };
    // The move's first ply: back over the plies that stopped for a choice.
    let mut first = last;
    while first > 0 && stopped_for_choice(&events[first - 1]) {
        first -= 1;
    }
    for (i, row) in rows.iter().enumerate().skip(first) {
        if row.user_id.is_none() {
            return bar(UndoBar::BotPlayed);
        }
        if let Some(reveal) = revealed(&events[i]) {
            let yours = i <= last;
            return bar(UndoBar::Revealed { reveal, yours });
        }
    }
    Ok(rows[first].ply - 1)
}

impl GameService {
    /// `user` asks to take back their last move in `id`; alone at the table with bots, it is
    /// taken back at once.
    pub fn request_undo(&self, user: UserId, id: GameId) -> Result<UndoVote> {
        let now = self.now();
        self.write(id, Needs::Running, |tx, loaded| {
            let team = loaded
                .seat_of(user)
                .ok_or(ServiceError::NotYourGame(id))?
                .team;
            if store::get_undo_request(tx, id)?.is_some() {
                return Err(ServiceError::UndoProposed(id));
            }
            let back_to = back_to(tx, loaded, team, user)?;
            let request = UndoRequestRow {
                game_id: id,
                team,
                user_id: user,
                at_ply: loaded.row.ply,
                back_to,
                requested_at: now,
                accepted: vec![team],
            };
            let moves = loaded.moves - store::completed_moves(tx, id, back_to)?;
            if !voters(loaded, team).is_empty() {
                let proposed = Notice::UndoProposed {
                    team,
                    moves,
                    at_ply: loaded.row.ply,
                };
                notice(tx, &loaded.row, proposed, now)?;
            }
            self.settle_undo(tx, loaded, request, now)
        })
    }

    /// `user`'s answer to the request to take moves back in `id` that was made at `at_ply`.
    pub fn vote_undo(&self, user: UserId, id: GameId, at_ply: u32, yes: bool) -> Result<UndoVote> {
        let now = self.now();
        self.write(id, Needs::Running, |tx, loaded| {
            let team = loaded
                .seat_of(user)
                .ok_or(ServiceError::NotYourGame(id))?
                .team;
            let mut request = store::get_undo_request(tx, id)?
                .filter(|r| r.at_ply == at_ply && r.at_ply == loaded.row.ply)
                .ok_or(ServiceError::NoUndoProposed(id))?;
            if request.accepted.contains(&team) {
                return Err(ServiceError::UndoVoted(id));
            }
            if !yes {
                drop_request(tx, id)?;
                notice(tx, &loaded.row, Notice::UndoRefused { team }, now)?;
                return Ok(UndoVote::Refused);
            }
            request.accepted.push(team);
            self.settle_undo(tx, loaded, request, now)
        })
    }

    /// Stores the request after an answer, or takes the moves back once everyone agreed.
    fn settle_undo(
        &self,
        tx: &Tx<'_>,
        loaded: &mut Loaded,
        request: UndoRequestRow,
        now: i64,
    ) -> Result<UndoVote> {
        let voters = voters(loaded, request.team);
        let accepted = voters
            .iter()
            .filter(|t| request.accepted.contains(t))
            .count();
        if accepted < voters.len() {
            let id = loaded.row.id;
            store::put_undo_request(tx, &request)?;
            store::set_game_timer(
                tx,
                id,
                TimerKind::UndoVote,
                request.requested_at + UNDO_VOTE_MS,
            )?;
            return Ok(UndoVote::Waiting {
                accepted: accepted + 1,
                needed: voters.len() + 1,
            });
        }
        let move_number = self.take_back(tx, loaded, &request, now)?;
        Ok(UndoVote::TakenBack { move_number })
    }

    /// Writes the take-back row and puts the game back at `request.back_to`: a snapshot at
    /// once (so that no load replays across the row), the asker's turn with a full deadline,
    /// the word in the thread and the board as it is again.
    fn take_back(
        &self,
        tx: &Tx<'_>,
        loaded: &mut Loaded,
        request: &UndoRequestRow,
        now: i64,
    ) -> Result<u32> {
        let id = loaded.row.id;
        let seed = loaded.row.seed.ok_or(ServiceError::NotRunning(id))?;
        let ply = loaded.row.ply + 1;
        let back = TakeBack {
            to: request.back_to,
        };
        let game = replay(tx, &loaded.row, &loaded.config, seed, back.to)?.resumed_at(ply);
        // The person on turn now loses their turn's prompt: its buttons are for a board that
        // is gone.
        let prompted = loaded
            .game
            .as_ref()
            .and_then(|g| loaded.team_seat(g.controller()))
            .and_then(|s| s.user_id);
        let recorded = store::insert_action(
            tx,
            &ActionRow {
                game_id: id,
                ply,
                team: request.team.number(),
                user_id: Some(request.user_id),
                notation: TakeBack::NOTATION.into(),
                action: Logged::TakeBack(back).encode(),
                events: "[]".into(),
                created_at: now,
            },
        )?;
        if !recorded {
            return Err(ServiceError::AlreadyPlayed);
        }
        let state = serde_json::to_string(&game).expect("plain data");
        store::insert_snapshot(tx, id, ply, &state, now)?;
        drop_request(tx, id)?;
        let moves_before = loaded.moves;
        loaded.row.ply = ply;
        loaded.moves = store::completed_moves(tx, id, ply)?;
        let taken = Notice::UndoAccepted {
            team: request.team,
            moves: moves_before - loaded.moves,
        };
        notice(tx, &loaded.row, taken, now)?;
        if let (Some(user), Some(_)) = (prompted, loaded.row.channel_id) {
            let message = OutboxMessage::TurnOver {
                game_id: id,
                ply: ply - 1,
            };
            outbox::enqueue(tx, Target::User { id: user }, &message, now)?;
        }
        let deadline_ms = super::turns::turn_deadline(tx, loaded, &game, now)?;
        if let Some(target) = public_target(&loaded.row) {
            let message = OutboxMessage::BoardPost {
                game_id: id,
                first_ply: ply,
                ply,
                deadline_ms,
            };
            outbox::enqueue(tx, target, &message, now)?;
        }
        self.schedule_turn_at(tx, loaded, &game, now, true, deadline_ms)?;
        loaded.game = Some(game);
        Ok(loaded.moves)
    }

    /// The lapse timer of a request came due: a request still open lapses.
    pub(super) fn undo_timer(&self, tx: &impl Db, loaded: &Loaded, now: i64) -> Result<bool> {
        let id = loaded.row.id;
        let Some(request) = store::get_undo_request(tx, id)? else {
            return Ok(false);
        };
        if now < request.requested_at + UNDO_VOTE_MS {
            return Ok(false);
        }
        store::delete_undo_request(tx, id)?;
        let lapsed = Notice::UndoLapsed { team: request.team };
        notice(tx, &loaded.row, lapsed, now)?;
        Ok(true)
    }
}

/// Ends a game's open request, and its timer.
fn drop_request(tx: &impl Db, id: GameId) -> Result<()> {
    store::delete_undo_request(tx, id)?;
    store::drop_game_timer(tx, id, TimerKind::UndoVote)?;
    Ok(())
}

/// An action was played in `loaded`'s game: a request open there is void (the table would no
/// longer be taking back what it was asked). Inside the action's transaction; one indexed
/// delete when no request is open.
pub(super) fn void_request(tx: &impl Db, loaded: &Loaded, now: i64) -> Result<()> {
    let id = loaded.row.id;
    if let Some(team) = store::take_undo_request(tx, id)? {
        store::drop_game_timer(tx, id, TimerKind::UndoVote)?;
        notice(tx, &loaded.row, Notice::UndoVoided { team }, now)?;
    }
    Ok(())
}
