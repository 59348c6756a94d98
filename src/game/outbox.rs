//! Messages the service asks the adapter to send, stored as outbox rows in the same
//! transaction as the change they announce (DESIGN §2): nothing is lost by a crash, and the
//! sender marks each row sent once.
//!
//! A row holds values, never sentences: the events of a move are in the action log, a notice
//! is a [`Notice`], an ending a [`GameEnd`]. The sender words them in the game's or the
//! reader's language when it sends them, so one stored game can be told in English and in
//! Russian.

use crate::id::{ChannelId, GameId, UserId};
use crate::store::Db;
use serde::{Deserialize, Serialize};

use super::end::GameEnd;
use crate::engine::Team;
use crate::store::{self, OutboxRow};

/// Where a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "lowercase")]
pub enum Target {
    /// The game's public place: its thread once it has one, else its channel (decided when
    /// the row is sent, so the rows of a game's start reach the thread that start creates).
    Game,
    /// A channel (or thread) by id.
    Channel { id: ChannelId },
    /// A user, in private.
    User { id: UserId },
}

/// A line about the game that is not a move, posted in its public place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "notice", rename_all = "snake_case")]
pub enum Notice {
    /// A player was removed from a running game; a bot plays the seat on.
    Kicked { team: Team },
    /// A player resigned a game of three or four; a bot plays the seat on.
    Resigned { team: Team },
    /// A player's time ran out under the `resign` policy in a game of three or four: the
    /// seat resigned, a bot plays it on.
    ResignedLate { team: Team },
    /// A deadline passed; a bot made this one move.
    TimedOut { team: Team },
    /// A deadline passed; the turn passed without a move (the `skip` policy).
    Passed { team: Team },
    /// `missed` deadlines in a row: a bot keeps the seat.
    TakenOver { team: Team, missed: u32 },
    /// The player a bot replaced took their seat back.
    Reclaimed { team: Team },
    /// The player is on vacation until then: their deadlines wait.
    Away { team: Team, until_ms: i64 },
    /// A deadline of the player's passed while they are away: it moved to `deadline_ms`.
    Held { team: Team, deadline_ms: i64 },
    /// The player came back from vacation early.
    Back { team: Team },
    /// The team's player proposes a pause (the post carries the buttons to vote).
    PauseProposed { team: Team, length_ms: i64 },
    /// The pause the team proposed was accepted: the game's clock stops until then.
    PauseStarted { team: Team, until_ms: i64 },
    /// The team's player voted the pause down.
    PauseRefused { team: Team },
    /// The pause the team proposed got too few votes in a day.
    PauseLapsed { team: Team },
    /// The pause the team proposed is over; the clock runs again.
    PauseOver { team: Team },
    /// The team on turn was given more time, until then.
    Extended { team: Team, deadline_ms: i64 },
    /// The team's player asks to take back their last move (`moves` moves in all, theirs and
    /// any played after it); the post carries the buttons to answer.
    UndoProposed { team: Team, moves: u32, at_ply: u32 },
    /// Everyone agreed: `moves` moves were taken back and the team's player is on turn again.
    UndoAccepted { team: Team, moves: u32 },
    /// The team's player refused to take the moves back.
    UndoRefused { team: Team },
    /// The request the team made got no answer from everyone in a day.
    UndoLapsed { team: Team },
    /// The request the team made is void: a move was played before everyone answered.
    UndoVoided { team: Team },
}

impl Notice {
    pub fn team(self) -> Team {
        match self {
            Notice::Kicked { team }
            | Notice::Resigned { team }
            | Notice::ResignedLate { team }
            | Notice::TimedOut { team }
            | Notice::Passed { team }
            | Notice::TakenOver { team, .. }
            | Notice::Reclaimed { team }
            | Notice::Away { team, .. }
            | Notice::Held { team, .. }
            | Notice::Back { team }
            | Notice::PauseProposed { team, .. }
            | Notice::PauseStarted { team, .. }
            | Notice::PauseRefused { team }
            | Notice::PauseLapsed { team }
            | Notice::PauseOver { team }
            | Notice::Extended { team, .. }
            | Notice::UndoProposed { team, .. }
            | Notice::UndoAccepted { team, .. }
            | Notice::UndoRefused { team }
            | Notice::UndoLapsed { team }
            | Notice::UndoVoided { team } => team,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutboxMessage {
    /// The game began: its thread is opened and the first board posted. `deadline_ms`: the
    /// first player's, if a person moves first.
    GameStarted {
        game_id: GameId,
        deadline_ms: Option<i64>,
    },
    /// The board after a completed move: plies `first_ply..=ply` (a move that went through
    /// choices is several plies), narrated from the action log. `deadline_ms`: the next
    /// player's, if a person moves next.
    BoardPost {
        game_id: GameId,
        first_ply: u32,
        ply: u32,
        deadline_ms: Option<i64>,
    },
    /// Private: it is your turn (your board and the buttons to play, read at send time).
    YourTurn {
        game_id: GameId,
        ply: u32,
        team: Team,
        deadline_ms: Option<i64>,
    },
    /// Private: your deadline is near.
    Reminder {
        game_id: GameId,
        ply: u32,
        team: Team,
        deadline_ms: i64,
    },
    /// Private: the turn whose prompt you were sent is over (played from anywhere), so the
    /// prompt's buttons go.
    TurnOver {
        game_id: GameId,
        ply: u32,
    },
    GameOver {
        game_id: GameId,
        end: GameEnd,
    },
    Notice {
        game_id: GameId,
        notice: Notice,
    },
    /// Private, once a day for a player who asked: the games where it is their turn (read
    /// again at send time: a game played meanwhile is left out).
    Digest {
        games: Vec<GameId>,
    },
}

impl OutboxMessage {
    pub fn kind(&self) -> &'static str {
        match self {
            OutboxMessage::GameStarted { .. } => "game_started",
            OutboxMessage::BoardPost { .. } => "board_post",
            OutboxMessage::YourTurn { .. } => "your_turn",
            OutboxMessage::Reminder { .. } => "reminder",
            OutboxMessage::TurnOver { .. } => "turn_over",
            OutboxMessage::GameOver { .. } => "game_over",
            OutboxMessage::Notice { .. } => "notice",
            OutboxMessage::Digest { .. } => "digest",
        }
    }

    /// The game the message is about (none for a digest of several).
    pub fn game_id(&self) -> Option<GameId> {
        Some(match self {
            OutboxMessage::GameStarted { game_id, .. }
            | OutboxMessage::BoardPost { game_id, .. }
            | OutboxMessage::YourTurn { game_id, .. }
            | OutboxMessage::Reminder { game_id, .. }
            | OutboxMessage::TurnOver { game_id, .. }
            | OutboxMessage::GameOver { game_id, .. }
            | OutboxMessage::Notice { game_id, .. } => *game_id,
            OutboxMessage::Digest { .. } => return None,
        })
    }
}

/// An unsent outbox row, read back as values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    pub id: i64,
    pub target: Target,
    pub message: OutboxMessage,
    /// Failed sends so far.
    pub attempts: u32,
    pub created_at: i64,
    /// Not to be sent before this time (a backoff after a failure).
    pub not_before: i64,
    /// Another process is sending it, under a lease that lapses then: neither it nor a later
    /// row of its game is this process's to send before (see [`super::Worker`]).
    pub held_until: Option<i64>,
}

impl Queued {
    /// Reads a stored row; `Err` names what is wrong with it.
    pub fn from_row(row: &OutboxRow) -> Result<Queued, String> {
        let target = serde_json::from_str(&row.target)
            .map_err(|e| format!("outbox row {}: target: {e}", row.id))?;
        let message = serde_json::from_str(&row.payload)
            .map_err(|e| format!("outbox row {}: payload: {e}", row.id))?;
        Ok(Queued {
            id: row.id,
            target,
            message,
            attempts: row.attempts,
            created_at: row.created_at,
            not_before: row.next_at,
            held_until: None,
        })
    }
}

/// Adds a message to the outbox (inside the caller's transaction).
pub fn enqueue(
    conn: &impl Db,
    target: Target,
    message: &OutboxMessage,
    now: i64,
) -> store::Result<i64> {
    let target = serde_json::to_string(&target).expect("plain data");
    let payload = serde_json::to_string(message).expect("plain data");
    store::insert_outbox(
        conn,
        message.game_id(),
        message.kind(),
        &target,
        &payload,
        now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: i64) -> GameId {
        GameId::new(n).unwrap()
    }

    #[test]
    fn messages_round_trip_as_values() {
        let messages = [
            OutboxMessage::GameStarted {
                game_id: game(1),
                deadline_ms: Some(5),
            },
            OutboxMessage::BoardPost {
                game_id: game(1),
                first_ply: 3,
                ply: 4,
                deadline_ms: None,
            },
            OutboxMessage::TurnOver {
                game_id: game(1),
                ply: 4,
            },
            OutboxMessage::GameOver {
                game_id: game(1),
                end: GameEnd::Cancelled,
            },
            OutboxMessage::Notice {
                game_id: game(1),
                notice: Notice::TakenOver {
                    team: Team::of(2),
                    missed: 3,
                },
            },
            OutboxMessage::Digest {
                games: vec![game(3), game(5)],
            },
        ];
        for m in messages {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<OutboxMessage>(&json).unwrap(), m);
        }
        for t in [
            Target::Game,
            Target::Channel {
                id: ChannelId::new(9),
            },
            Target::User { id: UserId::new(7) },
        ] {
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(serde_json::from_str::<Target>(&json).unwrap(), t);
        }
    }
    /// Rows written before the ids were typed are numbers in the JSON, and still read (and
    /// are written the same way).
    #[test]
    fn stored_ids_keep_their_form() {
        let stored = r#"{"kind":"turn_over","game_id":12,"ply":4}"#;
        let message: OutboxMessage = serde_json::from_str(stored).unwrap();
        assert_eq!(
            message,
            OutboxMessage::TurnOver {
                game_id: game(12),
                ply: 4
            }
        );
        assert_eq!(serde_json::to_string(&message).unwrap(), stored);
        let stored = r#"{"to":"user","id":18446744073709551615}"#;
        let target: Target = serde_json::from_str(stored).unwrap();
        assert_eq!(
            target,
            Target::User {
                id: UserId::new(u64::MAX)
            }
        );
        assert_eq!(serde_json::to_string(&target).unwrap(), stored);
        let zero = r#"{"kind":"turn_over","game_id":0,"ply":4}"#;
        assert!(serde_json::from_str::<OutboxMessage>(zero).is_err());
    }
}
