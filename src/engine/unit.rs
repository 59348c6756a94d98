//! Units, their positions and the vessels they sail (RULES §6, §8).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::board::Cell;
use super::codec::{is_false, is_zero};
use super::item::Items;

/// A team (R-GEN-1), 1–4.
pub type Team = u8;

/// A unit's id within its team (R-UNIT-1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum UnitKind {
    Pirate(u8),
    Ben,
    Friday,
    Missionary,
}

impl UnitKind {
    pub fn parse(text: &str) -> Option<UnitKind> {
        match text {
            "1" => Some(UnitKind::Pirate(1)),
            "2" => Some(UnitKind::Pirate(2)),
            "3" => Some(UnitKind::Pirate(3)),
            "b" => Some(UnitKind::Ben),
            "f" => Some(UnitKind::Friday),
            "m" => Some(UnitKind::Missionary),
            _ => None,
        }
    }

    pub fn is_pirate(self) -> bool {
        matches!(self, UnitKind::Pirate(_))
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitKind::Pirate(n) => write!(f, "{n}"),
            UnitKind::Ben => f.write_str("b"),
            UnitKind::Friday => f.write_str("f"),
            UnitKind::Missionary => f.write_str("m"),
        }
    }
}

/// A unit named by team and id, as tests write it: `2.f`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub struct UnitRef {
    pub team: Team,
    pub kind: UnitKind,
}

impl fmt::Display for UnitRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.team, self.kind)
    }
}

/// Where a unit is (R-GEN-3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Place {
    /// On a land cell; `step` is the maze step (1-based) on a maze and 0 elsewhere.
    Land { cell: Cell, step: u8 },
    /// Swimming on a sea cell without a vessel.
    Swim(Cell),
    /// Aboard the vessel with this index.
    Aboard(usize),
    /// Stuck in the cave tunnel, having entered by this cave.
    Tunnel(Cell),
    /// A dead ordinary pirate, waiting for a resurrection (R-UNIT-3).
    Dead,
}

impl Place {
    pub fn land(cell: Cell) -> Place {
        Place::Land { cell, step: 0 }
    }

    pub fn is_alive(self) -> bool {
        self != Place::Dead
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Seat {
    Pilot,
    Passenger,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Unit {
    pub team: Team,
    pub kind: UnitKind,
    pub place: Place,
    // The flags below are off for almost every unit: left out of the JSON when off, so a
    // snapshot stays small (see `codec`), and read back as off when absent.
    #[serde(default, skip_serializing_if = "is_false")]
    pub drunk: bool,
    /// Drunk when its team's current turn began: sobers at that turn's end (R-TURN-7 a).
    #[serde(default, skip_serializing_if = "is_false")]
    pub sobers_this_turn: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub trapped: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub converted: bool,
}

impl Unit {
    pub fn new(team: Team, kind: UnitKind, place: Place) -> Unit {
        Unit {
            team,
            kind,
            place,
            drunk: false,
            sobers_this_turn: false,
            trapped: false,
            seat: None,
            converted: false,
        }
    }

    pub fn reference(&self) -> UnitRef {
        UnitRef {
            team: self.team,
            kind: self.kind,
        }
    }

    pub fn alive(&self) -> bool {
        self.place.is_alive()
    }

    pub fn stuck(&self) -> bool {
        matches!(self.place, Place::Tunnel(_))
    }

    /// R-GEN-2: alive, not drunk, not trapped, not stuck.
    pub fn able(&self) -> bool {
        self.alive() && !self.drunk && !self.trapped && !self.stuck()
    }

    /// An unconverted missionary (R-MISSION-2).
    pub fn is_missionary(&self) -> bool {
        self.kind == UnitKind::Missionary && !self.converted
    }

    pub fn is_friday(&self) -> bool {
        self.kind == UnitKind::Friday
    }

    /// Fighting units (R-GEN-2): pirates, Ben Gunn, converted missionaries.
    pub fn fights(&self) -> bool {
        !self.is_friday() && !self.is_missionary()
    }

    /// Carriers (R-CARGO-2): everyone but an unconverted missionary.
    pub fn carries(&self) -> bool {
        !self.is_missionary()
    }

    /// Sails vessels and resurrects (R-UNIT-2).
    pub fn sails(&self) -> bool {
        self.fights()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Vessel {
    pub owner: Team,
    #[serde(default, skip_serializing_if = "is_false")]
    pub boat: bool,
    pub cell: Cell,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hits: u8,
    /// Non-gold items lying aboard (R-CARGO-7).
    #[serde(default, skip_serializing_if = "Items::is_empty")]
    pub items: Items,
    #[serde(default, skip_serializing_if = "is_false")]
    pub sunk: bool,
}
