//! Units, their positions and the vessels they sail (RULES §6, §8).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::board::Cell;
use super::codec::{is_false, is_zero};
use super::item::Items;
use super::team_cells::{TeamCells, held_cell};

/// A team (R-GEN-1): one seat, numbered 1–4. Written as its number (`2`), in JSON too.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Team(pub(super) u8);

impl Team {
    /// Every team a game can have, in turn order (R-SEAT-2).
    pub const ALL: [Team; 4] = [Team(1), Team(2), Team(3), Team(4)];

    /// Team `n`, if `n` is 1–4.
    pub const fn new(n: u8) -> Option<Team> {
        if n >= 1 && n <= 4 {
            Some(Team(n))
        } else {
            None
        }
    }

    /// Team `n` for a number known to be 1–4 (a constant, a loop over `1..=count`); panics
    /// otherwise.
    pub const fn of(n: u8) -> Team {
        match Team::new(n) {
            Some(t) => t,
            None => panic!("a team is numbered 1–4"),
        }
    }

    /// The seat number, 1–4.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The team's place in per-team tables (scores, rum stocks): 0–3.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl TryFrom<u8> for Team {
    type Error = String;

    fn try_from(n: u8) -> Result<Team, String> {
        Team::new(n).ok_or_else(|| format!("team {n}: teams are numbered 1–4"))
    }
}

impl From<Team> for u8 {
    fn from(t: Team) -> u8 {
        t.0
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A unit of a game: its place in the game's list of units, which never reorders (a dead
/// unit stays listed, R-UNIT-3). Only the game it came from can read it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub(super) u8);

impl UnitId {
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

/// A vessel of a game (a main ship or a launched boat): its place in the game's list of
/// vessels, which never reorders (a sunk vessel stays listed, R-SINK-3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VesselId(pub(super) u8);

impl VesselId {
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

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
    /// Aboard this vessel.
    Aboard(VesselId),
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

/// A game's units, read by [`UnitId`]. The list only grows (recruits join it; the dead stay),
/// so an id stays valid for the game's whole life.
///
/// A unit's place and team change only through [`Units::set_place`] and [`Units::set_team`]:
/// the list keeps which cells each team holds ([`TeamCells`]) in step with them. (Its other
/// fields, flags, are written through `units[id]` directly.)
#[derive(Clone, Default)]
pub(super) struct Units(Vec<Unit>, Kinds, TeamCells);

/// Which units are Fridays, alive or dead: a unit's kind never changes, so this follows the
/// list. Every arrival asks whether Friday meets a missionary there: most games have no Friday
/// at all, and the others one, so the look is at him alone rather than at every unit.
#[derive(Clone, Copy, Default)]
struct Kinds {
    /// The Fridays among the first 64 ids, as bits of their ids.
    fridays: u64,
    /// A Friday past the first 64 ids (no real game has as many units): look at them all.
    friday_beyond: bool,
}

impl Kinds {
    fn of(units: &[Unit]) -> Kinds {
        let mut out = Kinds::default();
        for (i, u) in units.iter().enumerate() {
            out.add(i, u);
        }
        out
    }

    fn add(&mut self, id: usize, unit: &Unit) {
        if unit.is_friday() {
            match 1u64.checked_shl(id as u32) {
                Some(bit) => self.fridays |= bit,
                None => self.friday_beyond = true,
            }
        }
    }
}

impl PartialEq for Units {
    fn eq(&self, other: &Units) -> bool {
        self.0 == other.0
    }
}

impl Eq for Units {}

/// The list alone, as when this was a plain list.
impl fmt::Debug for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Units {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        let list = Vec::<Unit>::deserialize(d)?;
        let kinds = Kinds::of(&list);
        let cells = TeamCells::of(&list);
        Ok(Units(list, kinds, cells))
    }
}

impl Units {
    pub fn push(&mut self, unit: Unit) -> UnitId {
        self.1.add(self.0.len(), &unit);
        self.2.add(unit.team, unit.place);
        self.0.push(unit);
        UnitId((self.0.len() - 1) as u8)
    }

    /// Moves unit `id` to `place` (see the type's doc).
    pub fn set_place(&mut self, id: UnitId, place: Place) {
        let unit = &mut self.0[id.index()];
        let (team, old) = (unit.team, std::mem::replace(&mut unit.place, place));
        if held_cell(old) != held_cell(place) {
            self.2.add(team, place);
            self.2.remove(team, old);
        }
    }

    /// Unit `id` changes sides where it stands (Friday, R-FRIDAY-3).
    pub fn set_team(&mut self, id: UnitId, team: Team) {
        let unit = &mut self.0[id.index()];
        let (old, place) = (std::mem::replace(&mut unit.team, team), unit.place);
        self.2.add(team, place);
        self.2.remove(old, place);
    }

    /// Which cells each team's units hold.
    pub fn cells(&self) -> &TeamCells {
        debug_assert_eq!(self.2, TeamCells::of(&self.0), "the cells follow the units");
        &self.2
    }

    /// The Fridays, alive or dead, in list order.
    pub fn fridays(&self) -> impl Iterator<Item = UnitId> + '_ {
        let mut bits = self.1.fridays;
        let first = std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                UnitId(i as u8)
            })
        });
        let beyond = self.1.friday_beyond.then(|| {
            (64..self.0.len())
                .filter(|&i| self.0[i].is_friday())
                .map(|i| UnitId(i as u8))
        });
        first.chain(beyond.into_iter().flatten())
    }

    /// Each unit with its id.
    pub fn enumerate(&self) -> impl Iterator<Item = (UnitId, &Unit)> {
        self.0.iter().enumerate().map(|(i, u)| (UnitId(i as u8), u))
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Unit> {
        self.0.iter_mut()
    }

    pub fn retain(&mut self, keep: impl FnMut(&Unit) -> bool) {
        self.0.retain(keep);
        self.1 = Kinds::of(&self.0);
        self.2 = TeamCells::of(&self.0);
    }
}

impl std::ops::Deref for Units {
    type Target = [Unit];

    fn deref(&self) -> &[Unit] {
        &self.0
    }
}

impl std::ops::Index<UnitId> for Units {
    type Output = Unit;

    fn index(&self, id: UnitId) -> &Unit {
        &self.0[id.index()]
    }
}

impl std::ops::IndexMut<UnitId> for Units {
    fn index_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.0[id.index()]
    }
}

/// A game's vessels, read by [`VesselId`]. The list only grows (boats are launched; the sunk
/// stay, marked), so an id stays valid for the game's whole life.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub(super) struct Vessels(Vec<Vessel>);

impl Vessels {
    pub fn push(&mut self, vessel: Vessel) -> VesselId {
        self.0.push(vessel);
        VesselId((self.0.len() - 1) as u8)
    }

    pub fn ids(&self) -> impl Iterator<Item = VesselId> + use<> {
        (0..self.0.len() as u8).map(VesselId)
    }

    pub fn enumerate(&self) -> impl Iterator<Item = (VesselId, &Vessel)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, v)| (VesselId(i as u8), v))
    }
}

impl std::ops::Deref for Vessels {
    type Target = [Vessel];

    fn deref(&self) -> &[Vessel] {
        &self.0
    }
}

impl std::ops::Index<VesselId> for Vessels {
    type Output = Vessel;

    fn index(&self, id: VesselId) -> &Vessel {
        &self.0[id.index()]
    }
}

impl std::ops::IndexMut<VesselId> for Vessels {
    fn index_mut(&mut self, id: VesselId) -> &mut Vessel {
        &mut self.0[id.index()]
    }
}

impl<'a> IntoIterator for &'a Units {
    type Item = &'a Unit;
    type IntoIter = std::slice::Iter<'a, Unit>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
