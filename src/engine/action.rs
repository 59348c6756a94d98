//! What a player submits (R-GEN-5, R-TURN-2) and the kinds of pending choices (R-TURN-3).

use serde::{Deserialize, Serialize};

use super::board::Cell;
use super::item::Items;
use super::unit::UnitKind;

/// One action, in canonical, state-independent form. Text notation lives in
/// [`crate::engine::notation`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Action {
    /// A unit move (or a flight from a plane seat): the acting team's unit makes a direct
    /// step to `to` with `cargo` taken from its starting position.
    Move {
        unit: UnitKind,
        to: Cell,
        cargo: Items,
    },
    /// The main ship moves to an adjacent slot.
    Ship { to: Cell },
    /// A boat on `from` moves to `to`.
    Boat { from: Cell, to: Cell },
    /// Resurrection in the resurrection fortress on `at`.
    Resurrect { at: Cell },
    /// Rum serving on `at` (a free action).
    Rum { at: Cell },
    /// The answer to a pending choice: a cell and the cargo that continues (for choices that
    /// offer no cargo selection this is the cargo carried now).
    Choose { cell: Cell, cargo: Items },
    /// The turn passes without a main action. No player may pass (R-TURN-4): this is what a
    /// game does for a team whose time ran out under the `skip` timeout policy, and it is
    /// never among the legal actions. It ends the turn as a skipped turn does (R-TURN-7).
    Pass,
}

impl Action {
    /// The cells the action names (one, or two for a boat).
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let (a, b) = match *self {
            Action::Move { to, .. } | Action::Ship { to } => (to, None),
            Action::Boat { from, to } => (from, Some(to)),
            Action::Resurrect { at } | Action::Rum { at } => (at, None),
            Action::Choose { cell, .. } => (cell, None),
            Action::Pass => return None.into_iter().chain(None),
        };
        Some(a).into_iter().chain(b)
    }
}

/// An action as listed by `legal_actions`, with the fatal flag of R-CHAIN-9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct LegalAction {
    pub action: Action,
    pub fatal: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum ChoiceKind {
    Exit,
    Jump,
    Flight,
    Cave,
    Reveal,
    Quake,
}

impl ChoiceKind {
    pub fn name(self) -> &'static str {
        match self {
            ChoiceKind::Exit => "exit",
            ChoiceKind::Jump => "jump",
            ChoiceKind::Flight => "flight",
            ChoiceKind::Cave => "cave",
            ChoiceKind::Reveal => "reveal",
            ChoiceKind::Quake => "quake",
        }
    }

    pub fn parse(text: &str) -> Option<ChoiceKind> {
        [
            ChoiceKind::Exit,
            ChoiceKind::Jump,
            ChoiceKind::Flight,
            ChoiceKind::Cave,
            ChoiceKind::Reveal,
            ChoiceKind::Quake,
        ]
        .into_iter()
        .find(|k| k.name() == text)
    }
}

/// How a unit moved into a cell (R-CHAIN-1). Part of the loop-detection key (R-CHAIN-6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Motion {
    Step(super::board::Dir),
    Jump(i8, i8),
    Flight,
    Shot,
    Balloon,
    Tunnel,
    Advance,
}

/// A filler for the fixed lists of entered positions (the fatal walk's, a chain's first
/// entries), never read as a motion: a step north, whose bytes are all zero, so such a list
/// starts as one block of zeros rather than a store per entry.
impl Default for Motion {
    fn default() -> Motion {
        Motion::Step(super::board::Dir::N)
    }
}

impl Motion {
    /// The motion a crocodile sends a unit back with (R-CROC-1).
    pub fn reverse(self) -> Motion {
        match self {
            Motion::Step(d) => Motion::Step(d.opposite()),
            Motion::Jump(dx, dy) => Motion::Jump(-dx, -dy),
            other => other,
        }
    }
}
