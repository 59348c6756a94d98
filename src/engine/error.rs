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

/// What exactly stands in the way, where the error kind alone leaves the player guessing:
/// the word the notation could not read, which of the cargo rules, which of the rum rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Detail {
    /// Nothing was written.
    NoText,
    /// The first word is no unit id, `ship`, `boat`, `res`, `rum` or cell.
    UnknownStart(String),
    /// A word in a cell's place is no cell of this board (S-NOT-3).
    NotACell(String),
    /// A cargo word is no item.
    NotAnItem(String),
    /// The action is complete before this word.
    TooManyWords(String),
    /// `ship`, `boat` or `rum` without its cell.
    CellMissing,
    Drunk,
    Trapped,
    Stuck,
    /// Stepping into the sea needs a boat to launch (R-BOAT-2).
    NoBoatToLaunch,
    /// The unit is an unconverted missionary or a swimmer (R-CARGO-2).
    CarriesNothing,
    /// The items are not where the unit stands.
    CargoNotThere,
    /// More than one item, or a wheelbarrow and more than two others (R-CARGO-2).
    CargoTooMuch,
    CargoIntoFog,
    CargoIntoFortress,
    CargoIntoJungle,
    CargoOntoEnemies,
    /// Nobody aboard who can sail it (R-VESSEL-3).
    NoCrew,
    NoRumInStock,
    /// Nobody uses another team's rum on a weed turn (R-WEED-3).
    WeedTurn,
    /// No own unit able to serve at or next to the cell (R-RUM-3).
    NoServer,
    RumOnJungle,
    /// An enemy stands on the maze's last step (R-RUM-5).
    RumOntoEnemy,
    /// The serving would change nothing (`no_wasted_rum`).
    RumWasted,
}

impl Detail {
    /// A sentence for players (English; the bot's words come from its own Fluent files).
    pub fn explain(&self) -> String {
        match self {
            Detail::NoText => "nothing was written".into(),
            Detail::UnknownStart(w) => format!(
                "`{w}` is not a piece (1, 2, 3, b, f, m), `ship`, `boat`, `res`, `rum` or a cell"
            ),
            Detail::NotACell(w) => format!("`{w}` is not a cell of this board"),
            Detail::NotAnItem(w) => {
                format!("`{w}` is not an item (coin, bar, ball, boat, cart)")
            }
            Detail::TooManyWords(w) => format!("`{w}` is one word too many"),
            Detail::CellMissing => "the cell is missing".into(),
            Detail::Drunk => "that piece is drunk".into(),
            Detail::Trapped => "that piece is caught in a trap".into(),
            Detail::Stuck => "that piece is stuck in the cave tunnel".into(),
            Detail::NoBoatToLaunch => "a piece steps into the sea only to launch a boat".into(),
            Detail::CarriesNothing => "that piece carries nothing".into(),
            Detail::CargoNotThere => "those items are not where the piece stands".into(),
            Detail::CargoTooMuch => {
                "a piece carries one item, or a wheelbarrow and two more".into()
            }
            Detail::CargoIntoFog => "a piece with cargo cannot enter the fog".into(),
            Detail::CargoIntoFortress => "a piece with cargo cannot enter a fortress".into(),
            Detail::CargoIntoJungle => "a piece with cargo cannot enter the jungle".into(),
            Detail::CargoOntoEnemies => "a piece with cargo cannot attack".into(),
            Detail::NoCrew => "nobody aboard can sail it".into(),
            Detail::NoRumInStock => "no rum in your stock".into(),
            Detail::WeedTurn => "nobody serves rum on a shaitan weed turn".into(),
            Detail::NoServer => "no piece of yours is there or next to it to serve".into(),
            Detail::RumOnJungle => "rum cannot be served onto the jungle".into(),
            Detail::RumOntoEnemy => "an enemy stands on the maze's last step".into(),
            Detail::RumWasted => "the rum would change nothing there".into(),
        }
    }
}

/// A refused action: the kind of R-STEP-2/R-ERR-1, the detail where there is one, and a
/// sentence saying why.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct IllegalAction {
    pub kind: ErrorKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Detail>,
}

impl IllegalAction {
    pub fn with(kind: ErrorKind, detail: Option<Detail>) -> IllegalAction {
        IllegalAction { kind, detail }
    }

    /// Why, as a sentence for players: the detail where there is one, else the kind's.
    pub fn why(&self) -> String {
        match &self.detail {
            Some(d) => d.explain(),
            None => self.kind.explain().to_string(),
        }
    }
}

impl From<ErrorKind> for IllegalAction {
    fn from(kind: ErrorKind) -> IllegalAction {
        IllegalAction { kind, detail: None }
    }
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.detail {
            Some(d) => write!(f, "{}: {}", self.kind, d.explain()),
            None => write!(f, "{}: {}", self.kind, self.kind.explain()),
        }
    }
}

impl std::error::Error for IllegalAction {}
