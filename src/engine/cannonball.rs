//! Cannonball fire (R-BALL) and what it does to the cells along the barrel, to swimmers and,
//! with `destroying_ships`, to vessels, which sink (R-SINK-1..4).

use super::board::{Cell, Dir};
use super::event::{DeathCause, Event, OpenedBy};
use super::game::Game;
use super::setup::hits_to_sink;
use super::tile::TileKind;
use super::unit::{Place, Team, UnitId, VesselId};

impl Game {
    /// R-BALL-1..5: the cannon on `cannon` fires along `d` for `team`; the line is swept cell
    /// by cell from the cannon outward, ending with the first sea cell.
    pub(super) fn fire(&mut self, cannon: Cell, d: Dir, team: Team, ev: &mut Vec<Event>) {
        ev.push(Event::CannonFired {
            team,
            cell: cannon,
            dir: d,
        });
        for c in self.board.line_of_fire(cannon, d) {
            if self.board.is_sea(c) {
                self.sweep_sea(c, team, ev);
                break;
            }
            if self.is_fog(c) {
                if self.settings.cannonball_spares_fog {
                    continue;
                }
                self.open_by_ball(c, ev);
            }
            self.sweep_land(c, team, ev);
        }
    }

    /// R-BALL-3, "opened by a cannonball": gold and items that would appear leave the game;
    /// the lighthouse, earthquake and caramba are spent; a cave releases the stuck unit; a
    /// first-entry trigger waits (D-21).
    fn open_by_ball(&mut self, c: Cell, ev: &mut Vec<Event>) {
        let kind = self.turn_face_up(c, OpenedBy::Cannonball, ev);
        if kind.acts_on_opening() {
            self.tile_mut(c).used = true;
        }
        let hidden = kind.contents();
        if !hidden.is_empty() {
            // Dealt gold that never lay on the board: lost all the same (R-SCORE-3).
            self.lose(c, hidden, ev);
        }
        if kind == TileKind::Cave {
            self.release_onto_opened(c, ev);
        }
    }

    /// R-BALL-4: an open land cell on the line. Units inside a fortress are safe while
    /// `fortress_vs_cannonball` is on; everyone else there is knocked out, or dies with
    /// `cannonball_kills` on; Friday, not killed, joins the firing team. The items leave.
    fn sweep_land(&mut self, c: Cell, team: Team, ev: &mut Vec<Event>) {
        let fortress = self.open_kind(c).is_some_and(TileKind::is_fortress);
        if !(fortress && self.settings.fortress_vs_cannonball) {
            let hit: Vec<UnitId> = self.units_on_cell(c).collect();
            self.hit_units(&hit, c, team, false, ev);
        }
        let items = std::mem::take(self.items_mut(c));
        self.lose(c, items, ev);
    }

    /// R-BALL-5: the first sea cell. Swimmers die (Friday as on land); units aboard are safe;
    /// the vessel there is hit when `destroying_ships` is on and it is an enemy's, or any
    /// vessel with `friendly_fire` on too.
    fn sweep_sea(&mut self, c: Cell, team: Team, ev: &mut Vec<Event>) {
        let swimmers: Vec<UnitId> = self.swimmers_at(c).collect();
        self.hit_units(&swimmers, c, team, true, ev);
        let Some(v) = self.vessel_at(c) else {
            return;
        };
        let owner = self.vessels[v].owner;
        if self.settings.destroying_ships
            && (self.enemies(owner, team) || self.settings.friendly_fire)
        {
            self.hit_vessel(v, ev);
        }
    }

    fn hit_units(
        &mut self,
        hit: &[UnitId],
        c: Cell,
        team: Team,
        swimming: bool,
        ev: &mut Vec<Event>,
    ) {
        for &u in hit {
            let kills = swimming || self.settings.cannonball_kills;
            if self.units[u].is_friday() && !self.settings.cannonball_kills {
                if self.units[u].team != team {
                    self.join(u, team, ev);
                }
            } else if kills {
                self.kill(u, c, DeathCause::Cannonball, ev);
            } else {
                self.knock_out(u, c, ev);
            }
        }
        // A knock-out can bring Friday and a missionary aboard one vessel.
        for v in self.vessels.ids() {
            let cell = self.vessels[v].cell;
            self.friday_meets_missionary(Place::Aboard(v), cell, ev);
        }
    }

    /// R-SINK-2: hits add up; a main ship sinks at its second hit on 13×13 and its first on
    /// smaller boards, a boat at its first.
    fn hit_vessel(&mut self, v: VesselId, ev: &mut Vec<Event>) {
        let vessel = &mut self.vessels[v];
        vessel.hits = vessel.hits.saturating_add(1);
        let sinks_at = if vessel.boat {
            1
        } else {
            hits_to_sink(self.settings.board_size)
        };
        ev.push(Event::VesselHit {
            team: vessel.owner,
            cell: vessel.cell,
            hits: vessel.hits,
        });
        if u32::from(vessel.hits) >= sinks_at {
            self.sink(v, ev);
        }
    }

    /// R-SINK-3/4: the vessel leaves the board with the items aboard; each unit aboard goes to
    /// the nearest other vessel of its own team, or dies if its team has none. Allied vessels
    /// are no refuge here.
    fn sink(&mut self, v: VesselId, ev: &mut Vec<Event>) {
        let cell = self.vessels[v].cell;
        self.vessels[v].sunk = true;
        ev.push(Event::VesselSunk {
            team: self.vessels[v].owner,
            cell,
            boat: self.vessels[v].boat,
        });
        let items = std::mem::take(&mut self.vessels[v].items);
        self.lose(cell, items, ev);
        let aboard: Vec<UnitId> = self.aboard(v).collect();
        for u in aboard {
            let team = self.units[u].team;
            match self.nearest_vessel(cell, |owner| owner == team, team) {
                Some(to) => {
                    self.send_aboard(u, to);
                    ev.push(Event::Retreated {
                        unit: self.units[u].reference(),
                        from: cell,
                        to: self.vessels[to].cell,
                    });
                    let at = self.vessels[to].cell;
                    self.friday_meets_missionary(Place::Aboard(to), at, ev);
                }
                None => self.kill(u, cell, DeathCause::Sunk, ev),
            }
        }
    }

    /// R-SINK-5, at the end of each turn while `destroying_ships` is on: a side none of whose
    /// teams has a vessel left is eliminated; its units die and its teams have no more turns.
    pub(super) fn eliminate_sides_without_vessels(&mut self, ev: &mut Vec<Event>) {
        if !self.settings.destroying_ships {
            return;
        }
        // Checked at the end of every turn: no list of the teams is built, and nothing is
        // asked while every vessel floats (a side is only out once all its vessels sank).
        if self.vessels.iter().all(|v| !v.sunk) {
            return;
        }
        for team in self.teams() {
            if self.is_eliminated(team) {
                continue;
            }
            let afloat = self
                .vessels
                .iter()
                .any(|v| !v.sunk && self.allied(v.owner, team));
            if afloat {
                continue;
            }
            self.eliminated[team.index()] = true;
            ev.push(Event::Eliminated { team });
            let living: Vec<UnitId> = self
                .units
                .enumerate()
                .filter(|(_, u)| u.team == team && u.alive())
                .map(|(i, _)| i)
                .collect();
            for u in living {
                let at = self.unit_cell(u).unwrap_or(Cell::new(0, 0));
                self.kill(u, at, DeathCause::Eliminated, ev);
            }
        }
    }
}
