//! Messages the service asks the adapter to send, stored as outbox rows in the same
//! transaction as the change they announce (DESIGN §2): nothing is lost by a crash, and the
//! sender marks each row sent once.

use serde::{Deserialize, Serialize};

use crate::store::{self, GameId, UserId};

/// Where a message goes: a channel (or thread) in public, or a user in private.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "lowercase")]
pub enum Target {
    Channel { id: u64 },
    User { id: UserId },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutboxMessage {
    /// The board after a completed move: plies `first_ply..=ply`, described in `lines`.
    BoardPost {
        game_id: GameId,
        first_ply: u32,
        ply: u32,
        lines: Vec<String>,
    },
    /// Private: it is your turn (with your legal moves, read at send time).
    YourTurn {
        game_id: GameId,
        ply: u32,
        team: u8,
        deadline_ms: Option<i64>,
    },
    /// Private: your deadline is near.
    Reminder {
        game_id: GameId,
        ply: u32,
        team: u8,
        deadline_ms: i64,
    },
    GameStarted {
        game_id: GameId,
    },
    GameOver {
        game_id: GameId,
        result: String,
    },
    /// A line for the game's channel (resignations, kicks, cancellations, timeouts).
    Notice {
        game_id: GameId,
        text: String,
    },
}

impl OutboxMessage {
    pub fn kind(&self) -> &'static str {
        match self {
            OutboxMessage::BoardPost { .. } => "board_post",
            OutboxMessage::YourTurn { .. } => "your_turn",
            OutboxMessage::Reminder { .. } => "reminder",
            OutboxMessage::GameStarted { .. } => "game_started",
            OutboxMessage::GameOver { .. } => "game_over",
            OutboxMessage::Notice { .. } => "notice",
        }
    }

    fn game_id(&self) -> GameId {
        match self {
            OutboxMessage::BoardPost { game_id, .. }
            | OutboxMessage::YourTurn { game_id, .. }
            | OutboxMessage::Reminder { game_id, .. }
            | OutboxMessage::GameStarted { game_id }
            | OutboxMessage::GameOver { game_id, .. }
            | OutboxMessage::Notice { game_id, .. } => *game_id,
        }
    }
}

/// Adds a message to the outbox (inside the caller's transaction).
pub fn enqueue(
    conn: &rusqlite::Connection,
    target: Target,
    message: &OutboxMessage,
    now: i64,
) -> store::Result<i64> {
    let target = serde_json::to_string(&target).expect("plain data");
    let payload = serde_json::to_string(message).expect("plain data");
    store::insert_outbox(
        conn,
        Some(message.game_id()),
        message.kind(),
        &target,
        &payload,
        now,
    )
}
