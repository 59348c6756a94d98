//! Fights, retreats and deaths (§11, §16), deliveries and losses (R-CARGO-6/7, R-SCORE-1):
//! what happens to units and items whoever moved them.

use super::board::{Board, Cell};
use super::event::{DeathCause, Event};
use super::game::Game;
use super::item::Items;
use super::unit::{Place, Team, UnitId, VesselId};

impl Game {
    /// R-FIGHT-4 on land, R-FIGHT-5 at sea: `attacker` of `team` meets `enemies`. Friday joins
    /// the attacker's team and stays (R-FRIDAY-3); on land the others are knocked out, at sea
    /// they die.
    pub(super) fn attack(&mut self, team: Team, at: Cell, enemies: &[UnitId], ev: &mut Vec<Event>) {
        let at_sea = self.board.is_sea(at);
        for &e in enemies {
            if self.units[e].is_friday() {
                self.join(e, team, ev);
            } else if at_sea {
                self.kill(e, at, DeathCause::Drowned, ev);
            } else {
                self.knock_out(e, at, ev);
            }
        }
    }

    /// Friday changes sides and stays where he is (R-FRIDAY-3).
    pub(super) fn join(&mut self, friday: UnitId, team: Team, ev: &mut Vec<Event>) {
        self.units.set_team(friday, team);
        ev.push(Event::Joined {
            unit: self.units[friday].reference(),
            team,
        });
    }

    /// R-FIGHT-4, R-RETREAT: to the retreat vessel without cargo, losing drunk, trapped, stuck
    /// and seated; with no vessel to go to, the unit dies (R-RETREAT-4).
    pub(super) fn knock_out(&mut self, e: UnitId, from: Cell, ev: &mut Vec<Event>) {
        let team = self.units[e].team;
        match self.retreat_vessel(team, from) {
            Some(v) => {
                self.send_aboard(e, v);
                ev.push(Event::KnockedOut {
                    unit: self.units[e].reference(),
                    from,
                    to: self.vessels[v].cell,
                });
            }
            None => self.kill(e, from, DeathCause::NoVessel, ev),
        }
    }

    /// A unit arrives aboard `v` by being moved there (a knock-out, the caramba, a sinking):
    /// every state of its old position is lost.
    pub(super) fn send_aboard(&mut self, u: UnitId, v: VesselId) {
        self.units.set_place(u, Place::Aboard(v));
        let unit = &mut self.units[u];
        unit.drunk = false;
        unit.sobers_this_turn = false;
        unit.trapped = false;
        unit.seat = None;
    }

    /// R-RETREAT-1..3: the nearest own vessel, else the nearest allied one; ties go to a main
    /// ship before a boat (the team's own ship first), then to canonical cell order.
    pub(crate) fn retreat_vessel(&self, team: Team, from: Cell) -> Option<VesselId> {
        self.nearest_vessel(from, |owner| owner == team, team)
            .or_else(|| self.nearest_vessel(from, |owner| self.allied(owner, team), team))
    }

    /// The nearest vessel afloat whose owner passes `owned`, by R-RETREAT-2/3.
    pub(super) fn nearest_vessel(
        &self,
        from: Cell,
        owned: impl Fn(Team) -> bool,
        team: Team,
    ) -> Option<VesselId> {
        self.vessels
            .enumerate()
            .filter(|(_, v)| !v.sunk && owned(v.owner))
            .min_by_key(|(_, v)| {
                (
                    Board::distance(from, v.cell, self.settings.retreat_distance),
                    v.boat,
                    v.owner != team,
                    self.board.index(v.cell),
                )
            })
            .map(|(i, _)| i)
    }

    /// Cargo arriving aboard: gold scores for the owner, other items lie aboard (R-CARGO-7).
    pub(super) fn deliver(&mut self, v: VesselId, cargo: Items, ev: &mut Vec<Event>) {
        if cargo.is_empty() {
            return;
        }
        let owner = self.vessels[v].owner;
        let cell = self.vessels[v].cell;
        let points = cargo.gold_points();
        if points > 0 {
            // Saturating: a scenario or a stored state may start a score anywhere up to the
            // counter's limit, and a score must never wrap round to nothing.
            let score = &mut self.scores[owner.index()];
            *score = score.saturating_add(points);
            self.delivered_gold = self.delivered_gold.saturating_add(points);
            self.progress = true;
            ev.push(Event::Delivered {
                team: owner,
                cell,
                points,
            });
        }
        let rest = cargo.without_gold();
        if !rest.is_empty() {
            self.vessels[v].items.add_all(rest);
            ev.push(Event::Stowed { cell, items: rest });
        }
    }

    /// Items leave the game (R-CARGO-6, R-DEATH-2, R-BALL-4).
    pub(super) fn lose(&mut self, cell: Cell, items: Items, ev: &mut Vec<Event>) {
        if items.is_empty() {
            return;
        }
        let points = items.gold_points();
        if points > 0 {
            self.lost_gold = self.lost_gold.saturating_add(points);
            self.progress = true;
        }
        ev.push(Event::Lost { cell, items });
    }

    /// A unit dies (R-DEATH): ordinary pirates stay recorded dead; others leave for good. It
    /// leaves its seat, trap and tunnel place (R-DEATH-2).
    pub(crate) fn kill(&mut self, u: UnitId, at: Cell, cause: DeathCause, ev: &mut Vec<Event>) {
        self.units.set_place(u, Place::Dead);
        let unit = &mut self.units[u];
        unit.drunk = false;
        unit.sobers_this_turn = false;
        unit.trapped = false;
        unit.seat = None;
        ev.push(Event::Died {
            unit: unit.reference(),
            at,
            cause,
        });
    }

    /// R-FRIDAY-5: whenever Friday and an unconverted missionary are together (any teams; the
    /// same maze step; aboard the same vessel; in the jungle too), both die at once.
    pub(super) fn friday_meets_missionary(&mut self, place: Place, at: Cell, ev: &mut Vec<Event>) {
        // Checked after every arrival; most games have no Friday at all, the others one.
        let friday = self.units.fridays().find(|&f| self.units[f].place == place);
        let Some(friday) = friday else {
            return;
        };
        let missionaries: Vec<UnitId> = self
            .units
            .enumerate()
            .filter(|(_, o)| o.is_missionary() && o.place == place)
            .map(|(i, _)| i)
            .collect();
        if missionaries.is_empty() {
            return;
        }
        self.kill(friday, at, DeathCause::FridayMissionary, ev);
        for m in missionaries {
            self.kill(m, at, DeathCause::FridayMissionary, ev);
        }
    }
}
