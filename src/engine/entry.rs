//! Who may enter a position, and with what (R-CHAIN-3, R-STEP-2 checks 6–9, R-CARGO-5,
//! R-FRIDAY-4, R-MISSION-2, R-JUNGLE-2): one answer for the direct step, which is refused with
//! the reason, for a forced chain, where the unit dies there, and for the fatal flag.

use super::error::ErrorKind;
use super::game::Game;
use super::team_cells::held_cell;
use super::tile::TileKind;
use super::unit::{Place, Team, Unit, UnitId};

/// A summary of the enemy units at one position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EnemiesAt {
    pub any: bool,
    pub any_missionary: bool,
    /// True when there are none.
    pub all_missionaries: bool,
}

impl EnemiesAt {
    pub const NONE: EnemiesAt = EnemiesAt {
        any: false,
        any_missionary: false,
        all_missionaries: true,
    };
}

/// How the unit comes: by its own direct step (the player chose it) or carried by a chain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Coming {
    Direct,
    Forced,
}

/// The step a unit entering `cell` lands on: maze step 1, the last step for Friday, 0 off
/// mazes (R-MAZE-1).
pub(crate) fn entry_step(game: &Game, cell: super::board::Cell, friday: bool) -> u8 {
    match game.maze_steps(cell) {
        0 => 0,
        k if friday => k,
        _ => 1,
    }
}

impl Game {
    /// What the enemies of `team` at a position are (no allocation: this runs at every entry of
    /// a chain and for targets with enemies). A stuck unit is at no position (R-GEN-3).
    pub(crate) fn enemies_at(&self, team: Team, place: Place) -> EnemiesAt {
        // Most positions hold no enemy at all: the sets of cells say so without a pass over
        // the units.
        if let Some(cell) = held_cell(place)
            && !self.units.cells().any_of(self.enemy_teams(team), cell)
        {
            return EnemiesAt::NONE;
        }
        let mut out = EnemiesAt::NONE;
        for o in &self.units {
            if o.place == place && self.enemies(o.team, team) {
                out.any = true;
                let m = o.is_missionary();
                out.any_missionary |= m;
                out.all_missionaries &= m;
            }
        }
        out
    }

    /// Why `mover` may not enter `place` (a land position or a sea cell without a vessel), or
    /// `None`. In the order of R-STEP-2: 6 an enemy fortress, 7 an enemy missionary, 8 a unit
    /// that cannot attack the enemies there. With `coming` direct, check 8 also holds back a
    /// unit that starts together with an own or allied missionary under
    /// `missionary_blocks_attack` (R-FIGHT-2); a forced chain is not limited by it. A unit
    /// forced where it may not enter dies there (R-CHAIN-3).
    pub(crate) fn entry_refusal(
        &self,
        mover: UnitId,
        place: Place,
        enemies: EnemiesAt,
        coming: Coming,
    ) -> Option<ErrorKind> {
        let unit = &self.units[mover];
        let (cell, land) = match place {
            Place::Land { cell, .. } => (cell, true),
            Place::Swim(cell) => (cell, false),
            _ => return None,
        };
        let kind = if land { self.open_kind(cell) } else { None };
        if kind.is_some_and(TileKind::is_fortress) && self.enemy_in_fortress(mover, cell) {
            return Some(ErrorKind::EnemyFortress);
        }
        // Nothing happens between units on a jungle tile (R-JUNGLE-2).
        if kind == Some(TileKind::Jungle) || !enemies.any {
            return None;
        }
        if enemies.any_missionary && !unit.is_friday() {
            return Some(ErrorKind::EnemyMissionary);
        }
        // Friday may step onto enemies that are all unconverted missionaries (R-FRIDAY-4).
        if unit.is_missionary() || (unit.is_friday() && !enemies.all_missionaries) {
            return Some(ErrorKind::CannotAttack);
        }
        if coming == Coming::Direct
            && self.settings.missionary_blocks_attack
            && self.with_own_missionary(mover)
        {
            return Some(ErrorKind::CannotAttack);
        }
        None
    }

    /// Any enemy of `mover`, of any kind, inside the fortress on `cell` (R-FORT-1).
    fn enemy_in_fortress(&self, mover: UnitId, cell: super::board::Cell) -> bool {
        // The mover is never its own enemy: who holds the cell answers.
        let team = self.units[mover].team;
        self.units.cells().any_of(self.enemy_teams(team), cell)
    }

    /// Is `mover` together with an own or allied unconverted missionary (D-40)?
    fn with_own_missionary(&self, mover: UnitId) -> bool {
        let unit: &Unit = &self.units[mover];
        self.units.enumerate().any(|(i, o)| {
            i != mover
                && o.alive()
                && o.is_missionary()
                && self.allied(o.team, unit.team)
                && o.place == unit.place
        })
    }

    /// R-CARGO-5: cargo may not enter fog, a fortress of either kind, the jungle, or a land
    /// position holding enemy units. The sea never refuses cargo: it sinks there, or a boat is
    /// launched (R-CARGO-6).
    pub(crate) fn cargo_barred(&self, team: Team, place: Place) -> bool {
        self.cargo_barred_where(team, place, true)
    }

    /// [`Game::cargo_barred`], told whether an enemy of `team` may stand on the cell: the move
    /// generator knows, and spares most targets the look at every unit.
    pub(crate) fn cargo_barred_where(&self, team: Team, place: Place, enemy_maybe: bool) -> bool {
        let Place::Land { cell, step } = place else {
            return false;
        };
        if self.is_fog(cell) {
            return true;
        }
        let kind = self.open_kind(cell).unwrap_or(TileKind::Empty);
        if kind.is_fortress() || kind == TileKind::Jungle {
            return true;
        }
        enemy_maybe
            && self
                .units_at(cell, step)
                .any(|i| self.enemies(self.units[i].team, team))
    }
}
