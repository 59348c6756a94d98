//! Caves and the tunnel that joins them (R-CAVE): passing through, getting stuck, and the
//! stuck unit's release. With `boardgame_caves` on (R-CAVE-7) a unit stops on a cave and may
//! pass through on a later move, and nobody is ever stuck.

use super::action::{ChoiceKind, Motion};
use super::board::Cell;
use super::chain::{Entry, Flow};
use super::event::Event;
use super::game::{Chain, Game};
use super::tile::TileKind;
use super::unit::{Place, UnitId};

impl Game {
    /// The open cave cells, in canonical order.
    fn open_caves(&self) -> impl Iterator<Item = Cell> + '_ {
        // Straight over the tiles (one per land cell, by board index, in canonical order):
        // asked for every unit standing on a cave on every ply.
        self.tiles.iter().enumerate().filter_map(|(i, t)| {
            t.as_ref()
                .filter(|t| t.open && t.effective() == TileKind::Cave)
                .map(|_| self.board.cell_at(i))
        })
    }

    /// Where a unit entering (or standing on) the cave `c` may come out of the tunnel: with
    /// the default rules another open cave with nobody standing on it (R-CAVE-1); with the
    /// board game's, another open cave without an enemy of `u` (R-CAVE-7).
    pub(crate) fn tunnel_exits(&self, u: UnitId, c: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.open_caves()
            .filter(move |&e| self.tunnel_exit_free(u, c, e))
    }

    /// Whether the tunnel has an exit for `u` entering (or standing on) the cave `c`.
    pub(crate) fn has_tunnel_exit(&self, u: UnitId, c: Cell) -> bool {
        self.open_caves().any(|e| self.tunnel_exit_free(u, c, e))
    }

    /// Whether the open cave `e` is an exit for `u` coming from the cave `c`.
    fn tunnel_exit_free(&self, u: UnitId, c: Cell, e: Cell) -> bool {
        if e == c {
            return false;
        }
        // Who stands on the exit, from the sets of cells the units keep (no look at each).
        let blocking = if self.settings.boardgame_caves {
            self.enemy_teams(self.units[u].team)
        } else {
            0b1111
        };
        !self.units.cells().any_of(blocking, e)
    }

    /// The unit stuck in the tunnel, if any (R-CAVE-4: at most one).
    fn stuck_unit(&self) -> Option<UnitId> {
        self.units
            .enumerate()
            .find(|(_, u)| u.stuck())
            .map(|(i, _)| i)
    }

    /// R-CAVE-3, after the opening and the fights: through the tunnel to an exit, stuck in the
    /// tunnel, or the cave acts as an empty cell.
    pub(super) fn enter_cave(&mut self, ch: &mut Chain, c: Cell, ev: &mut Vec<Event>) -> Flow {
        if self.settings.boardgame_caves {
            return Flow::Stand;
        }
        let u = ch.unit;
        if self.has_tunnel_exit(u, c) {
            return self.enter_tunnel(ch, c, ev);
        }
        if self.open_caves().any(|o| o != c) {
            // (c) every other open cave is occupied.
            return Flow::Stand;
        }
        // (b) the only open cave: stuck, unless the unit stuck before cannot come out here.
        if let Some(held) = self.stuck_unit()
            && self.enemy_of_stands_on(held, c, Some(u))
        {
            return Flow::Stand;
        }
        let cargo = std::mem::take(&mut ch.cargo);
        if !cargo.is_empty() {
            self.items_mut(c).add_all(cargo);
            ev.push(Event::PutDown {
                cell: c,
                items: cargo,
            });
        }
        let released = self.stuck_unit();
        self.units.set_place(u, Place::Tunnel(c));
        ev.push(Event::Stuck {
            unit: self.units[u].reference(),
            cave: c,
        });
        if let Some(held) = released {
            self.release(held, c, ev);
        }
        Flow::Done
    }

    /// R-CAVE-3 (a), R-CAVE-5, R-CAVE-7: the unit on cave `c` goes into the tunnel: to its only
    /// exit at once, or the player picks one (`cave` choice). Leaving `c` releases the unit
    /// stuck before onto it.
    pub(super) fn enter_tunnel(&mut self, ch: &Chain, c: Cell, ev: &mut Vec<Event>) -> Flow {
        // None, one or several exits: the first two tell, without their list.
        let first_two = {
            let mut exits = self.tunnel_exits(ch.unit, c);
            (exits.next(), exits.next())
        };
        match first_two {
            (None, _) => Flow::Stand,
            (Some(exit), None) => {
                self.release_from_tunnel(c, Some(ch.unit), ev);
                Flow::Next(Entry::new(exit, Motion::Tunnel))
            }
            _ => Flow::Choice(ChoiceKind::Cave),
        }
    }

    /// R-CAVE-4: the unit stuck in the tunnel comes out onto `c`, unless an enemy of it stands
    /// there (`leaving`, who goes into the tunnel, does not count, D-46).
    pub(super) fn release_from_tunnel(
        &mut self,
        c: Cell,
        leaving: Option<UnitId>,
        ev: &mut Vec<Event>,
    ) {
        let held = self.stuck_unit();
        if let Some(u) = leaving {
            // In the tunnel on its way to the exit: no longer on `c`, where the stuck unit
            // comes out (and where, were they Friday and a missionary, they would meet).
            self.units.set_place(u, Place::Tunnel(c));
        }
        let Some(held) = held else {
            return;
        };
        if Some(held) == leaving || self.enemy_of_stands_on(held, c, leaving) {
            return;
        }
        self.release(held, c, ev);
    }

    /// A stuck unit stands on `c`, free (R-CAVE-4); a cave opened by a lighthouse or a
    /// cannonball releases it too.
    pub(super) fn release(&mut self, held: UnitId, c: Cell, ev: &mut Vec<Event>) {
        let place = Place::Land { cell: c, step: 0 };
        self.units.set_place(held, place);
        ev.push(Event::Released {
            unit: self.units[held].reference(),
            at: c,
        });
        self.friday_meets_missionary(place, c, ev);
    }

    /// A cave just opened by a lighthouse or a cannonball: the stuck unit comes out on it.
    pub(super) fn release_onto_opened(&mut self, c: Cell, ev: &mut Vec<Event>) {
        if let Some(held) = self.stuck_unit() {
            self.release(held, c, ev);
        }
    }

    fn enemy_of_stands_on(&self, held: UnitId, c: Cell, except: Option<UnitId>) -> bool {
        let team = self.units[held].team;
        self.units_on_cell(c)
            .any(|i| Some(i) != except && self.enemies(self.units[i].team, team))
    }
}
