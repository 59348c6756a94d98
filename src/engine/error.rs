//! Why an action is refused (R-STEP-2, R-ERR-1). A refused action changes nothing.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum ErrorKind {
    Syntax,
    Ambiguous,
    GameOver,
    ChoicePending,
    NoChoicePending,
    BadChoice,
    NoSuchUnit,
    UnitDisabled,
    Unreachable,
    EnemyVessel,
    BadCargo,
    EnemyFortress,
    EnemyMissionary,
    CannotAttack,
    CargoForbidden,
    VesselCannotMove,
    NoResurrection,
    RumForbidden,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 18] = [
        ErrorKind::Syntax,
        ErrorKind::Ambiguous,
        ErrorKind::GameOver,
        ErrorKind::ChoicePending,
        ErrorKind::NoChoicePending,
        ErrorKind::BadChoice,
        ErrorKind::NoSuchUnit,
        ErrorKind::UnitDisabled,
        ErrorKind::Unreachable,
        ErrorKind::EnemyVessel,
        ErrorKind::BadCargo,
        ErrorKind::EnemyFortress,
        ErrorKind::EnemyMissionary,
        ErrorKind::CannotAttack,
        ErrorKind::CargoForbidden,
        ErrorKind::VesselCannotMove,
        ErrorKind::NoResurrection,
        ErrorKind::RumForbidden,
    ];

    /// The id used by the scenario format (`expect reject … unit_disabled`).
    pub fn id(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::GameOver => "game_over",
            ErrorKind::ChoicePending => "choice_pending",
            ErrorKind::NoChoicePending => "no_choice_pending",
            ErrorKind::BadChoice => "bad_choice",
            ErrorKind::NoSuchUnit => "no_such_unit",
            ErrorKind::UnitDisabled => "unit_disabled",
            ErrorKind::Unreachable => "unreachable",
            ErrorKind::EnemyVessel => "enemy_vessel",
            ErrorKind::BadCargo => "bad_cargo",
            ErrorKind::EnemyFortress => "enemy_fortress",
            ErrorKind::EnemyMissionary => "enemy_missionary",
            ErrorKind::CannotAttack => "cannot_attack",
            ErrorKind::CargoForbidden => "cargo_forbidden",
            ErrorKind::VesselCannotMove => "vessel_cannot_move",
            ErrorKind::NoResurrection => "no_resurrection",
            ErrorKind::RumForbidden => "rum_forbidden",
        }
    }

    pub fn parse(text: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.id() == text)
    }

    /// A sentence for players.
    pub fn explain(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "the move is not written in a form the game understands",
            ErrorKind::Ambiguous => "the move fits several actions; name the cell",
            ErrorKind::GameOver => "the game is over",
            ErrorKind::ChoicePending => "a choice is pending: answer it with a cell first",
            ErrorKind::NoChoicePending => "there is no pending choice to answer",
            ErrorKind::BadChoice => "that is not one of the options of the pending choice",
            ErrorKind::NoSuchUnit => "your team has no living unit with that id",
            ErrorKind::UnitDisabled => "that unit is drunk, trapped or stuck and cannot move",
            ErrorKind::Unreachable => "that cell cannot be reached from where the unit stands",
            ErrorKind::EnemyVessel => "a unit cannot step onto an enemy vessel",
            ErrorKind::BadCargo => "that cargo is not there, or is more than the unit can carry",
            ErrorKind::EnemyFortress => "an enemy unit holds that fortress",
            ErrorKind::EnemyMissionary => "an enemy missionary stands there",
            ErrorKind::CannotAttack => "that unit cannot attack",
            ErrorKind::CargoForbidden => {
                "cargo cannot go into the fog, a fortress, the jungle or onto enemies"
            }
            ErrorKind::VesselCannotMove => "that vessel cannot move there",
            ErrorKind::NoResurrection => "no resurrection is possible",
            ErrorKind::RumForbidden => "rum cannot be served there now",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A refused action: the kind of R-STEP-2/R-ERR-1 plus a sentence saying why.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error, Serialize, Deserialize)]
#[error("{kind}: {}", kind.explain())]
pub struct IllegalAction {
    pub kind: ErrorKind,
}

impl From<ErrorKind> for IllegalAction {
    fn from(kind: ErrorKind) -> IllegalAction {
        IllegalAction { kind }
    }
}
