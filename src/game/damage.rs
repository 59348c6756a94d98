//! What can be wrong with a stored game that the program did not write that way: a settings
//! edited by hand, a seed gone, an action changed under the log's digest chain. A damaged game
//! is named with what is wrong ([`ServiceError::Damaged`](super::ServiceError::Damaged)) and
//! refused; every other game goes on. `jackal doctor` reports the same values.

use crate::store::GameStatus;

/// Why a stored game cannot be trusted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    /// The settings are not JSON of a configuration, or hold a value the lobby refuses.
    #[error("its settings are not valid: {0}")]
    Settings(String),
    /// A started game without the seed its map is dealt from.
    #[error("it is {} but has no seed", .0.as_str())]
    NoSeed(GameStatus),
    /// The map cannot be dealt from the stored settings and seed.
    #[error("its map cannot be dealt: {0}")]
    Deal(String),
    /// An action row that is not an action.
    #[error("the action at ply {ply} cannot be read: {why}")]
    UnreadableAction { ply: u32, why: String },
    /// An action the rules refuse in the position the log before it leads to.
    #[error("the action at ply {ply} does not replay: {why}")]
    Replay { ply: u32, why: String },
    /// A gap in the action log.
    #[error("the action at ply {ply} is missing")]
    Missing { ply: u32 },
    /// An action row that does not match the digest chained over the log when it was
    /// written (store/digest.rs): it was changed, copied or removed afterwards.
    #[error("the action at ply {ply} was changed after it was recorded")]
    Edited { ply: u32 },
    /// A game in play whose player on turn has no legal action (R-TURN-5 skips such a turn
    /// before anyone is asked to play it).
    #[error(
        "at move {move_number} the player on turn has no legal action, a position the rules never reach"
    )]
    Stuck { move_number: u32 },
}
