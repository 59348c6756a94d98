//! Where each team's units stand or swim, one bit (and a count) per cell and team, kept by the
//! game's list of units as they move ([`super::unit::Units`]).
//!
//! "Is an enemy there?" is asked for nearly every cell a move looks at: at the start of every
//! turn (is a step open?), for every target of a listing, at every entry of a chain. Each answer
//! was a pass over every unit; with these sets it is a few bit operations, and only a cell
//! that holds someone is looked at unit by unit.

use super::board::Cell;
use super::unit::{Place, Team, Unit};

/// A set of cells, bit `row * 16 + col` of four words (boards are at most 13 wide): a union is
/// four instructions, a look-up one shift.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct CellSet([u64; 4]);

impl CellSet {
    pub const ALL: CellSet = CellSet([u64::MAX; 4]);

    /// The bit index of `cell`; coordinates past 15 (on no board) are masked, not checked.
    #[inline]
    fn index(cell: Cell) -> usize {
        (cell.row as usize & 15) << 4 | (cell.col as usize & 15)
    }

    /// The word and bit of `cell`.
    #[inline]
    fn bit(cell: Cell) -> (usize, u64) {
        let i = CellSet::index(cell);
        (i >> 6, 1 << (i & 63))
    }

    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let (w, bit) = CellSet::bit(cell);
        self.0[w] & bit != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let (w, bit) = CellSet::bit(cell);
        self.0[w] |= bit;
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let (w, bit) = CellSet::bit(cell);
        self.0[w] &= !bit;
    }
}

/// The cells each team's units hold, by `team.index()`, with how many of them hold each (a
/// unit leaving a cell clears it only as the last of its team there).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct TeamCells {
    sets: [CellSet; 4],
    /// Units per team and cell, at the cell's bit index.
    counts: [[u8; 256]; 4],
}

impl Default for TeamCells {
    fn default() -> TeamCells {
        TeamCells {
            sets: [CellSet::default(); 4],
            counts: [[0; 256]; 4],
        }
    }
}

/// The cell a unit occupies for who-stands-where: on land (any maze step) or swimming. Aboard,
/// in the tunnel or dead, a unit holds no cell (R-GEN-3).
pub(crate) fn held_cell(place: Place) -> Option<Cell> {
    match place {
        Place::Land { cell, .. } | Place::Swim(cell) => Some(cell),
        _ => None,
    }
}

impl TeamCells {
    /// The sets of a whole list of units.
    pub fn of(units: &[Unit]) -> TeamCells {
        let mut out = TeamCells::default();
        for u in units {
            out.add(u.team, u.place);
        }
        out
    }

    /// A unit of `team` now (also) holds the cell of `place`.
    pub fn add(&mut self, team: Team, place: Place) {
        if let Some(cell) = held_cell(place) {
            let count = &mut self.counts[team.index()][CellSet::index(cell)];
            *count = count.saturating_add(1);
            self.sets[team.index()].insert(cell);
        }
    }

    /// A unit of `team` left `place`: its cell stays held while another unit of the team does.
    pub fn remove(&mut self, team: Team, place: Place) {
        if let Some(cell) = held_cell(place) {
            let count = &mut self.counts[team.index()][CellSet::index(cell)];
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.sets[team.index()].remove(cell);
            }
        }
    }

    /// Does a unit of one of `teams` (bits of `team.index()`) stand or swim on `cell`?
    #[inline]
    pub fn any_of(&self, teams: u8, cell: Cell) -> bool {
        let (w, bit) = CellSet::bit(cell);
        let mut found = 0;
        for (i, team) in self.sets.iter().enumerate() {
            // A team's word or nothing, without a branch.
            found |= team.0[w] & 0u64.wrapping_sub(u64::from(teams >> i & 1));
        }
        found & bit != 0
    }

    /// The cells of the units of `teams` (bits of `team.index()`).
    #[inline]
    pub fn of_teams(&self, teams: u8) -> CellSet {
        let mut out = CellSet::default();
        for (i, team) in self.sets.iter().enumerate() {
            let keep = 0u64.wrapping_sub(u64::from(teams >> i & 1));
            for (o, w) in out.0.iter_mut().zip(team.0) {
                *o |= w & keep;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::unit::UnitKind;

    fn cell(text: &str) -> Cell {
        Cell::parse(text).unwrap()
    }

    /// A cell stays held while one unit of the team is left on it, and only by that team.
    #[test]
    fn a_cell_is_held_until_its_last_unit_leaves() {
        let (one, two) = (Team::of(1), Team::of(2));
        let mut units = vec![
            Unit::new(one, UnitKind::Pirate(1), Place::land(cell("e5"))),
            Unit::new(one, UnitKind::Pirate(2), Place::land(cell("e5"))),
            Unit::new(two, UnitKind::Pirate(1), Place::Swim(cell("a5"))),
        ];
        let mut cells = TeamCells::of(&units);
        assert!(cells.any_of(0b01, cell("e5")));
        assert!(!cells.any_of(0b10, cell("e5")));
        assert!(cells.any_of(0b10, cell("a5")));
        units[0].place = Place::Dead;
        cells.remove(one, Place::land(cell("e5")));
        assert!(cells.any_of(0b01, cell("e5")), "pirate 2 is still there");
        units[1].place = Place::land(cell("e6"));
        cells.remove(one, Place::land(cell("e5")));
        cells.add(one, units[1].place);
        assert!(!cells.any_of(0b11, cell("e5")));
        assert_eq!(cells, TeamCells::of(&units));
        assert!(cells.of_teams(0b01).contains(cell("e6")));
        assert!(!cells.of_teams(0b01).contains(cell("a5")));
        assert!(cells.of_teams(0b11).contains(cell("a5")));
        assert!(!cells.of_teams(0b11).contains(cell("e5")));
    }
}
