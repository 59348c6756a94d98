//! Vessels moving (R-VESSEL-3/4, R-SHIP-1, R-BOAT-1) and boats launched (R-BOAT-2): what a
//! vessel arriving on a cell does to the swimmers there.

use super::board::Cell;
use super::event::{DeathCause, Event};
use super::game::Game;
use super::item::{Item, Items};
use super::unit::{Place, UnitId, Vessel, VesselId};

impl Game {
    /// R-VESSEL-3/4: a vessel moves with everyone aboard; the turn ends.
    pub(super) fn move_vessel(&mut self, v: VesselId, to: Cell, ev: &mut Vec<Event>) {
        let team = self.vessels[v].owner;
        let from = self.vessels[v].cell;
        self.vessels[v].cell = to;
        ev.push(Event::VesselMoved { team, from, to });
        self.run_over(v, to, ev);
        self.end_turn(ev);
    }

    /// R-BOAT-2: the unit's boat becomes a vessel of its team on the sea cell `x`, with the unit
    /// aboard and the rest of the cargo arriving aboard (R-CARGO-7).
    pub(super) fn launch(&mut self, u: UnitId, x: Cell, mut cargo: Items, ev: &mut Vec<Event>) {
        let team = self.units[u].team;
        cargo.remove_all(Items::one(Item::Boat));
        let v = self.vessels.push(Vessel {
            owner: team,
            boat: true,
            cell: x,
            hits: 0,
            items: Items::NONE,
            sunk: false,
        });
        ev.push(Event::Launched { team, cell: x });
        self.units.set_place(u, Place::Aboard(v));
        self.deliver(v, cargo, ev);
        self.run_over(v, x, ev);
    }

    /// R-VESSEL-4: own and allied swimmers on the vessel's cell come aboard; enemy swimmers
    /// are run over, except Friday, who joins the vessel's team and comes aboard (R-FRIDAY-3).
    fn run_over(&mut self, v: VesselId, at: Cell, ev: &mut Vec<Event>) {
        let team = self.vessels[v].owner;
        // Most cells a vessel enters hold no swimmer: no list to build.
        if !self.units.cells().any_of(0b1111, at) {
            self.friday_meets_missionary(Place::Aboard(v), at, ev);
            return;
        }
        let swimmers: Vec<UnitId> = self.swimmers_at(at).collect();
        for s in swimmers {
            let unit = self.units[s];
            if self.allied(unit.team, team) {
                self.units.set_place(s, Place::Aboard(v));
            } else if unit.is_friday() {
                self.join(s, team, ev);
                self.units.set_place(s, Place::Aboard(v));
            } else {
                self.kill(s, at, DeathCause::Drowned, ev);
            }
        }
        self.friday_meets_missionary(Place::Aboard(v), at, ev);
    }
}
