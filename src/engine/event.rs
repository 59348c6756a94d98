//! What happened, in order: enough to narrate a move ("Pirate 2 stepped on c5: crocodile, back
//! to c4") and to draw its path.

use serde::{Deserialize, Serialize};

use super::action::{ChoiceKind, Motion};
use super::board::{Cell, Dir};
use super::item::Items;
use super::tile::TileKind;
use super::unit::{Seat, Team, UnitRef};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum DeathCause {
    /// Attacked while swimming, or run over by a vessel.
    Drowned,
    /// A forced chain ended on an enemy vessel.
    EnemyVessel,
    /// Forced into a place it may not enter (R-CHAIN-3).
    Forbidden,
    /// Cargo restriction with `restriction_kills` (R-CHAIN-4).
    Restriction,
    Cannibal,
    /// Entered a chain state twice (R-CHAIN-6).
    Loop,
    /// Had to continue with nowhere to go (R-CHAIN-7).
    NowhereToGo,
    /// No own or allied vessel to retreat to (R-RETREAT-4).
    NoVessel,
    Cannonball,
    Rum,
    FridayMissionary,
    /// Aboard a vessel that sank, with no other vessel of its team (R-SINK-3).
    Sunk,
    Eliminated,
}

/// What opened a face-down tile (R-OPEN-1): its effects differ.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum OpenedBy {
    /// A unit entering it (events stored before the expansion have no opener: a unit).
    #[default]
    Unit,
    Lighthouse,
    Cannonball,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum EndReason {
    Uncatchable,
    NoMoves,
    Sunk,
    Disabled,
    Stall,
}

impl EndReason {
    pub fn id(self) -> &'static str {
        match self {
            EndReason::Uncatchable => "uncatchable",
            EndReason::NoMoves => "no_moves",
            EndReason::Sunk => "sunk",
            EndReason::Disabled => "disabled",
            EndReason::Stall => "stall",
        }
    }

    pub fn parse(text: &str) -> Option<EndReason> {
        [
            EndReason::Uncatchable,
            EndReason::NoMoves,
            EndReason::Sunk,
            EndReason::Disabled,
            EndReason::Stall,
        ]
        .into_iter()
        .find(|r| r.id() == text)
    }
}

/// The result of a finished game (R-END-7): the winning teams (one side), or a draw between
/// the teams of the sides named.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Outcome {
    pub winners: Vec<Team>,
    pub draw: bool,
    pub reason: EndReason,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Event {
    /// A unit moved into `to` from `from` (the cell it was on) by `motion`.
    Moved {
        unit: UnitRef,
        from: Cell,
        to: Cell,
        motion: Motion,
        step: u8,
    },
    /// A face-down tile was opened.
    Opened {
        cell: Cell,
        kind: TileKind,
        #[serde(default)]
        by: OpenedBy,
    },
    /// Gold or items appeared on an opened tile.
    Appeared {
        cell: Cell,
        items: Items,
    },
    /// Cargo put down at the end of a chain, or left at a fork or horse.
    PutDown {
        cell: Cell,
        items: Items,
    },
    /// Cargo that could not go on went back to the move's starting position (R-CHAIN-4).
    CargoReturned {
        cell: Cell,
        items: Items,
    },
    /// Items left the game (sunk, eaten, lost with a dying unit).
    Lost {
        cell: Cell,
        items: Items,
    },
    /// Gold delivered aboard a vessel, scoring for its owner.
    Delivered {
        team: Team,
        cell: Cell,
        points: u32,
    },
    /// Non-gold items put aboard a vessel.
    Stowed {
        cell: Cell,
        items: Items,
    },
    KnockedOut {
        unit: UnitRef,
        from: Cell,
        to: Cell,
    },
    Died {
        unit: UnitRef,
        at: Cell,
        cause: DeathCause,
    },
    /// Friday changed sides.
    Joined {
        unit: UnitRef,
        team: Team,
    },
    /// Ben Gunn, Friday or the missionary joined the finder's team (R-BEN-1, R-FRIDAY-1,
    /// R-MISSION-1).
    Recruited {
        unit: UnitRef,
        at: Cell,
    },
    /// Rum converted the missionary (R-MISSION-4).
    Converted {
        unit: UnitRef,
    },
    /// Bottles found went to the team's rum stock (R-BOTTLE-1).
    BottlesFound {
        team: Team,
        cell: Cell,
        bottles: u32,
    },
    /// The shaitan weed was found: weed turns for that many turns (R-WEED-1).
    WeedFound {
        team: Team,
        cell: Cell,
        turns: u32,
    },
    /// A unit went to its retreat vessel without being knocked out: by the caramba, or from a
    /// sunk vessel (R-CARAMBA-1, R-SINK-3).
    Retreated {
        unit: UnitRef,
        from: Cell,
        to: Cell,
    },
    /// The caramba fired (R-CARAMBA-1).
    Caramba {
        cell: Cell,
    },
    /// A unit is stuck in the cave tunnel (R-CAVE-3 b).
    Stuck {
        unit: UnitRef,
        cave: Cell,
    },
    /// The unit stuck in the tunnel came out (R-CAVE-4).
    Released {
        unit: UnitRef,
        at: Cell,
    },
    /// An earthquake swapped two tiles (R-QUAKE-1).
    Quaked {
        a: Cell,
        b: Cell,
    },
    /// A boat was launched (R-BOAT-2).
    Launched {
        team: Team,
        cell: Cell,
    },
    /// A cannon fired a cannonball along its barrel (R-BALL-1).
    CannonFired {
        team: Team,
        cell: Cell,
        dir: Dir,
    },
    /// A cannonball hit a vessel (R-BALL-5): its hits so far.
    VesselHit {
        team: Team,
        cell: Cell,
        hits: u8,
    },
    /// A vessel sank (R-SINK-3).
    VesselSunk {
        team: Team,
        cell: Cell,
        boat: bool,
    },
    /// A side without vessels is out of the game (R-SINK-5).
    Eliminated {
        team: Team,
    },
    Drunk {
        unit: UnitRef,
    },
    Sobered {
        unit: UnitRef,
    },
    Trapped {
        unit: UnitRef,
    },
    Freed {
        unit: UnitRef,
    },
    Seated {
        unit: UnitRef,
        seat: Seat,
    },
    PlaneSpent {
        cell: Cell,
    },
    VesselMoved {
        team: Team,
        from: Cell,
        to: Cell,
    },
    Resurrected {
        unit: UnitRef,
        at: Cell,
    },
    RumServed {
        team: Team,
        cell: Cell,
    },
    ChoiceRequired {
        kind: ChoiceKind,
    },
    TurnSkipped {
        team: Team,
    },
    /// The team's time ran out and its turn passed without a move (the `skip` timeout policy,
    /// [`Action::Pass`](super::action::Action::Pass)).
    TurnPassed {
        team: Team,
    },
    TurnStarted {
        team: Team,
    },
    GameOver(Outcome),
}
