//! Where a chain ends on land (R-CHAIN-2 g): the cargo is put down, then the tile's standing
//! effect applies: the cannibal, the trap, the rum barrel, a plane seat, the first-entry
//! triggers (Ben Gunn, Friday, the missionary, bottles, the weed) and the caramba.

use super::board::Cell;
use super::event::{DeathCause, Event};
use super::game::{Chain, Game};
use super::settings::PlaneSeats;
use super::tile::TileKind;
use super::unit::{Place, Seat, Unit, UnitId, UnitKind};

impl Game {
    /// R-CHAIN-2 (g): the chain ends on a land cell.
    pub(super) fn finish_on_land(&mut self, ch: &Chain, ev: &mut Vec<Event>) {
        let u = ch.unit;
        let Place::Land { cell: x, step } = self.units[u].place else {
            return;
        };
        let tile = *self.tile(x).expect("land");
        let kind = tile.effective();
        let friday = self.units[u].is_friday();
        if kind == TileKind::Cannibal && !friday {
            // R-CANNIBAL-1: eaten with the cargo (Friday is spared, and so is his).
            self.kill_carrier(ch, DeathCause::Cannibal, ev);
            return;
        }
        if !ch.cargo.is_empty() {
            self.items_mut(x).add_all(ch.cargo);
            ev.push(Event::PutDown {
                cell: x,
                items: ch.cargo,
            });
        }
        match kind {
            TileKind::Trap => self.trap(u, x, step, ev),
            TileKind::Barrel => self.barrel(u, x, ev),
            TileKind::Plane => self.take_seat(u, ev),
            k if k.has_trigger() && !tile.used => {
                self.tile_mut(x).used = true;
                self.trigger(u, x, k, ev);
            }
            // Opened by this unit's own chain (R-CARAMBA-1): it fires now, after the cargo.
            TileKind::Caramba if !tile.used => {
                self.tile_mut(x).used = true;
                self.caramba(x, ev);
            }
            _ => {}
        }
    }

    /// R-TRAP-1/2: caught when alone after the fights; a friend frees the one caught there.
    fn trap(&mut self, u: UnitId, x: Cell, step: u8, ev: &mut Vec<Event>) {
        let others: Vec<UnitId> = self.units_at(x, step).filter(|&i| i != u).collect();
        if others.is_empty() {
            // Friday is never caught (R-FRIDAY-2).
            if !self.units[u].is_friday() {
                self.units[u].trapped = true;
                ev.push(Event::Trapped {
                    unit: self.units[u].reference(),
                });
            }
            return;
        }
        for o in others {
            if self.units[o].trapped {
                self.units[o].trapped = false;
                ev.push(Event::Freed {
                    unit: self.units[o].reference(),
                });
            }
        }
    }

    /// R-BARREL-1: drunk; Friday dies of it (his cargo already put down, D-44); a missionary is
    /// converted and drunk.
    fn barrel(&mut self, u: UnitId, x: Cell, ev: &mut Vec<Event>) {
        if self.units[u].is_friday() {
            self.kill(u, x, DeathCause::Rum, ev);
            return;
        }
        if self.units[u].is_missionary() {
            self.convert(u, ev);
        }
        self.units[u].drunk = true;
        ev.push(Event::Drunk {
            unit: self.units[u].reference(),
        });
    }

    /// R-MISSION-4: rum makes the missionary a fighting unit.
    pub(super) fn convert(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        self.units[u].converted = true;
        ev.push(Event::Converted {
            unit: self.units[u].reference(),
        });
    }

    /// R-PLANE-3: the pilot seat if free, else the passenger seat where there is one, else the
    /// unit stands unseated. Only an unspent plane acts (a spent one is empty).
    fn take_seat(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let place = self.units[u].place;
        let seated: Vec<Seat> = self
            .units
            .iter()
            .filter(|o| o.alive() && o.place == place)
            .filter_map(|o| o.seat)
            .collect();
        let seat = if !seated.contains(&Seat::Pilot) {
            Some(Seat::Pilot)
        } else if self.settings.plane_seats != PlaneSeats::One && !seated.contains(&Seat::Passenger)
        {
            Some(Seat::Passenger)
        } else {
            None
        };
        if let Some(seat) = seat {
            self.units[u].seat = Some(seat);
            ev.push(Event::Seated {
                unit: self.units[u].reference(),
                seat,
            });
        }
    }

    /// A first-entry trigger fires for the unit whose chain ended on it (R-OPEN-2), for that
    /// unit's team.
    fn trigger(&mut self, u: UnitId, x: Cell, kind: TileKind, ev: &mut Vec<Event>) {
        let team = self.units[u].team;
        match kind {
            TileKind::BenGunn => self.recruit(UnitKind::Ben, u, x, ev),
            TileKind::Friday => self.recruit(UnitKind::Friday, u, x, ev),
            TileKind::Missionary => self.recruit(UnitKind::Missionary, u, x, ev),
            TileKind::Bottles(k) => self.find_bottles(u, x, k, ev),
            TileKind::Weed => {
                // R-WEED-1: one more round for every team in play.
                let teams = self.teams_in_play().count() as u32;
                self.weed = self.weed.saturating_add(teams);
                ev.push(Event::WeedFound {
                    team,
                    cell: x,
                    turns: self.weed,
                });
            }
            _ => {}
        }
    }

    /// R-BEN-1, R-FRIDAY-1, R-MISSION-1: the special unit joins the finder's team on the cell.
    /// Friday and an unconverted missionary found by the other die together (R-FRIDAY-5).
    fn recruit(&mut self, kind: UnitKind, finder: UnitId, x: Cell, ev: &mut Vec<Event>) {
        let team = self.units[finder].team;
        let place = self.units[finder].place;
        let unit = self.units.push(Unit::new(team, kind, place));
        ev.push(Event::Recruited {
            unit: self.units[unit].reference(),
            at: x,
        });
        self.friday_meets_missionary(place, x, ev);
    }

    /// R-BOTTLE-1: the bottles go to the finder's team's stock; Friday drinks one and dies, a
    /// missionary drinks one and is converted.
    fn find_bottles(&mut self, u: UnitId, x: Cell, bottles: u8, ev: &mut Vec<Event>) {
        let team = self.units[u].team;
        let mut stocked = u32::from(bottles);
        if self.units[u].is_friday() {
            stocked -= 1;
            self.kill(u, x, DeathCause::Rum, ev);
        } else if self.units[u].is_missionary() {
            stocked -= 1;
            self.convert(u, ev);
        }
        let stock = &mut self.rum[team.index()];
        *stock = stock.saturating_add(stocked);
        ev.push(Event::BottlesFound {
            team,
            cell: x,
            bottles: stocked,
        });
    }
}
