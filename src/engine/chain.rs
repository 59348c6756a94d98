//! Resolving a unit move: the direct step and the forced chain that follows (R-CHAIN). Each
//! entry of a cell goes through R-CHAIN-2 here; what a tile does once a unit is on it lives in
//! `effects` (moving on: arrows, ice, crocodiles, cannons, balloons, caves) and what happens
//! where the chain ends lives in `standing` (traps, rum, triggers, the caramba).

use std::ops::ControlFlow;

use super::action::{Action, ChoiceKind, Motion};
use super::board::{Board, Cell};
use super::entry::{Coming, entry_step};
use super::event::{DeathCause, Event};
use super::game::{Chain, Game, ItemHome, Pending};
use super::item::Items;
use super::settings::PlaneSeats;
use super::tile::TileKind;
use super::unit::{Place, Seat, UnitId};

/// One movement into a cell. `step` overrides the maze step (crocodile returns, advancing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub cell: Cell,
    pub motion: Motion,
    pub step: Option<u8>,
}

impl Entry {
    pub fn new(cell: Cell, motion: Motion) -> Entry {
        Entry {
            cell,
            motion,
            step: None,
        }
    }
}

/// What the chain does after an entry.
pub(super) enum Flow {
    Next(Entry),
    Choice(ChoiceKind),
    /// The unit stands on a land cell where the move ends.
    Stand,
    /// The chain is over already (aboard, swimming, stuck, dead, or a probe stopped at fog).
    Done,
}

impl Motion {
    /// The motion that takes a unit from `from` to `to` when it leaves a choice point of kind
    /// `kind`: a step through an exit, a knight jump, a flight or the tunnel (R-CHAIN-1).
    pub(crate) fn of_choice(kind: ChoiceKind, from: Cell, to: Cell) -> Option<Motion> {
        Some(match kind {
            ChoiceKind::Exit => Motion::Step(Board::dir_between(from, to)?),
            ChoiceKind::Jump => Motion::jump(from, to),
            ChoiceKind::Flight => Motion::Flight,
            ChoiceKind::Cave => Motion::Tunnel,
            ChoiceKind::Reveal | ChoiceKind::Quake => return None,
        })
    }

    /// The knight jump from `from` to `to`.
    pub(crate) fn jump(from: Cell, to: Cell) -> Motion {
        Motion::Jump(to.col as i8 - from.col as i8, to.row as i8 - from.row as i8)
    }
}

impl Game {
    /// The motion of a direct step of `u` to `to` (R-STEP-1): a flight from a plane seat, the
    /// tunnel from a cave, an advance in a maze, else a step.
    pub(crate) fn direct_motion(&self, u: UnitId, to: Cell) -> Option<Motion> {
        let unit = &self.units[u];
        let from = self.place_cell(unit.place)?;
        Some(match unit.place {
            Place::Land { .. } if unit.seat.is_some() => Motion::Flight,
            Place::Land { cell, .. } if cell == to => {
                if self.open_kind(cell) == Some(TileKind::Cave) {
                    Motion::Tunnel
                } else {
                    Motion::Advance
                }
            }
            _ => Motion::Step(Board::dir_between(from, to)?),
        })
    }

    /// Starts a legal unit move (R-STEP-3): take the cargo, take off from a plane seat, and
    /// enter the target.
    pub(crate) fn start_unit_move(
        &mut self,
        u: UnitId,
        to: Cell,
        cargo: Items,
        ev: &mut Vec<Event>,
    ) {
        let place = self.units[u].place;
        let origin = self.home_of(place).unwrap_or(ItemHome::Cell(to));
        if !cargo.is_empty() {
            self.home_items_mut(origin).remove_all(cargo);
        }
        let motion = self.direct_motion(u, to).expect("a legal target");
        if motion == Motion::Flight
            && let Place::Land { cell, .. } = place
        {
            self.take_off(u, cell, ev);
        }
        let chain = Chain {
            unit: u,
            cargo,
            origin,
            visited: Default::default(),
        };
        if motion == Motion::Tunnel {
            // R-CAVE-5/7: into the tunnel from the cave the unit stands on.
            let flow = self.enter_tunnel(&chain, to, ev);
            return self.follow(chain, flow, ev);
        }
        let step = match place {
            Place::Land { step, .. } if motion == Motion::Advance => Some(step + 1),
            _ => None,
        };
        self.run_chain(
            chain,
            Entry {
                cell: to,
                motion,
                step,
            },
            ev,
        );
    }

    /// R-PLANE-6: the lander leaves its seat; the plane stays usable only if someone is still
    /// seated (and never with one seat).
    fn take_off(&mut self, u: UnitId, cell: Cell, ev: &mut Vec<Event>) {
        self.units[u].seat = None;
        let place = self.units[u].place;
        let remaining = self
            .units
            .enumerate()
            .find(|(_, o)| o.alive() && o.place == place && o.seat.is_some())
            .map(|(o, _)| o);
        match remaining {
            Some(o) if self.settings.plane_seats != PlaneSeats::One => {
                self.units[o].seat = Some(Seat::Pilot);
            }
            _ => {
                if let Some(o) = remaining {
                    self.units[o].seat = None;
                }
                self.tile_mut(cell).used = true;
                ev.push(Event::PlaneSpent { cell });
            }
        }
    }

    /// Answers the pending exit/jump/flight/cave choice: drop or take cargo where allowed,
    /// then go on.
    pub(crate) fn resume_chain(&mut self, cell: Cell, cargo: Items, ev: &mut Vec<Event>) {
        let Some(Pending {
            kind,
            chain: Some(mut chain),
            ..
        }) = self.pending.take()
        else {
            return;
        };
        let here = self
            .unit_cell(chain.unit)
            .expect("the acting unit is alive");
        if chain.cargo != cargo {
            // R-CARGO-9: at a fork or horse the cargo is re-chosen from hand + cell.
            let mut pool = self.items_at(here);
            pool.add_all(chain.cargo);
            pool.remove_all(cargo);
            *self.items_mut(here) = pool;
            let mut dropped = chain.cargo;
            dropped.remove_all(cargo);
            if !dropped.is_empty() {
                ev.push(Event::PutDown {
                    cell: here,
                    items: dropped,
                });
            }
            chain.cargo = cargo;
        }
        if kind == ChoiceKind::Cave {
            self.release_from_tunnel(here, Some(chain.unit), ev);
        }
        let motion = Motion::of_choice(kind, here, cell).expect("a chain choice");
        self.run_chain(chain, Entry::new(cell, motion), ev);
    }

    pub(super) fn run_chain(&mut self, mut chain: Chain, mut entry: Entry, ev: &mut Vec<Event>) {
        loop {
            match self.enter(&mut chain, entry, ev) {
                Flow::Next(next) => entry = next,
                flow => return self.follow(chain, flow, ev),
            }
        }
    }

    /// Where a chain goes once an entry did not lead straight into the next: a choice for the
    /// player, the end on land, or nothing more.
    fn follow(&mut self, chain: Chain, flow: Flow, ev: &mut Vec<Event>) {
        match flow {
            Flow::Next(entry) => return self.run_chain(chain, entry, ev),
            Flow::Choice(kind) => {
                self.pending = Some(Pending::in_chain(kind, chain));
                // None, one or more options: the first two tell.
                let mut first = None;
                let mut count = 0;
                let _ = self.visit_choice_options(&mut |a| {
                    count += 1;
                    if count > 1 {
                        return ControlFlow::Break(());
                    }
                    first = Some(a);
                    ControlFlow::Continue(())
                });
                match (count, first) {
                    (0, _) => {
                        // Nowhere to go (R-CHAIN-7).
                        let chain = self.pending.take().and_then(|p| p.chain).expect("set");
                        self.kill_carrier(&chain, DeathCause::NowhereToGo, ev);
                    }
                    (1, Some(Action::Choose { cell, cargo })) => {
                        // A single option is applied automatically (R-TURN-3).
                        return self.resume_chain(cell, cargo, ev);
                    }
                    _ => {
                        ev.push(Event::ChoiceRequired { kind });
                        return;
                    }
                }
            }
            Flow::Stand => self.finish_on_land(&chain, ev),
            Flow::Done => {}
        }
        self.after_chain(ev);
    }

    /// R-CHAIN-2: one entry of cell `entry.cell` by the chain's unit.
    fn enter(&mut self, ch: &mut Chain, entry: Entry, ev: &mut Vec<Event>) -> Flow {
        let from_place = self.units[ch.unit].place;
        let from = self.place_cell(from_place).expect("a living unit");
        if self.board.is_sea(entry.cell) {
            if ch.visited.contains(&(entry.cell, 0, entry.motion)) {
                self.record_move(ch, from, entry.cell, entry.motion, 0, ev);
                return self.die_in_chain(ch, DeathCause::Loop, ev);
            }
            ch.visited.push((entry.cell, 0, entry.motion));
            self.record_move(ch, from, entry.cell, entry.motion, 0, ev);
            return self.enter_sea(ch, entry.cell, ev);
        }
        self.enter_land(ch, entry, from, from_place, ev)
    }

    /// R-CHAIN-2 (3): entering a land cell.
    fn enter_land(
        &mut self,
        ch: &mut Chain,
        entry: Entry,
        from: Cell,
        from_place: Place,
        ev: &mut Vec<Event>,
    ) -> Flow {
        let x = entry.cell;
        let friday = self.units[ch.unit].is_friday();
        // (c) comes after (a) and (b), but fog never holds units or repeats a visit, so the
        // loop and placement checks below only concern open tiles.
        let was_fog = self.is_fog(x);
        let mut step = 0;
        // Whether enemies stand where the unit arrives: asked once, for (a), (b) and (e).
        let mut enemies_there = false;
        if !was_fog {
            step = entry.step.unwrap_or_else(|| entry_step(self, x, friday));
            match self.may_arrive(ch, entry, step) {
                Ok(enemies) => enemies_there = enemies,
                Err(cause) => {
                    self.record_move(ch, from, x, entry.motion, step, ev);
                    return self.die_in_chain(ch, cause, ev);
                }
            }
        }
        // (b) cargo restriction (R-CHAIN-4).
        let team = self.units[ch.unit].team;
        if !ch.cargo.is_empty() && self.cargo_barred(team, Place::Land { cell: x, step }) {
            if self.settings.restriction_kills {
                self.record_move(ch, from, x, entry.motion, step, ev);
                return self.die_in_chain(ch, DeathCause::Restriction, ev);
            }
            self.return_cargo(ch, ev);
        }
        // (c) open the fog. The move is told first, so the story reads "moved to d2; d2
        // opened: …".
        if was_fog {
            self.record_move(ch, from, x, entry.motion, 0, ev);
            self.open_by_unit(x, ev);
            if self.probe {
                self.probe_hit_fog = true;
                return Flow::Done;
            }
            step = entry_step(self, x, friday);
        } else {
            self.record_move(ch, from, x, entry.motion, step, ev);
        }
        ch.visited.push((x, step, entry.motion));
        // (d) place the unit; (e) fights and meetings.
        let kind = self.place_on_land(ch, x, step, ev);
        if !self.arrive_among(ch, x, step, kind, enemies_there, ev) {
            return Flow::Done;
        }
        // (f) the tile's effect; arriving through the tunnel has none (R-CAVE-3 a).
        if entry.motion == Motion::Tunnel {
            return Flow::Stand;
        }
        self.tile_effect(ch, x, kind, entry.motion, from_place, ev)
    }

    /// The loop check (R-CHAIN-6) and (a), the places the unit may not enter (R-CHAIN-3), for
    /// an open tile: the cause of death, or whether enemies stand there.
    fn may_arrive(&self, ch: &Chain, entry: Entry, step: u8) -> Result<bool, DeathCause> {
        let x = entry.cell;
        if ch.visited.contains(&(x, step, entry.motion)) {
            return Err(DeathCause::Loop);
        }
        let place = Place::Land { cell: x, step };
        let enemies = self.enemies_at(self.units[ch.unit].team, place);
        match self.entry_refusal(ch.unit, place, enemies, Coming::Forced) {
            Some(_) => Err(DeathCause::Forbidden),
            None => Ok(enemies.any),
        }
    }

    /// (d): the unit stands on `x` (its maze step `step`); entering a maze short of its last
    /// step, the cargo goes straight there (R-MAZE-3). The tile's kind as it acts now.
    fn place_on_land(
        &mut self,
        ch: &mut Chain,
        x: Cell,
        step: u8,
        ev: &mut Vec<Event>,
    ) -> TileKind {
        self.units.set_place(ch.unit, Place::Land { cell: x, step });
        let kind = self.open_kind(x).unwrap_or(TileKind::Empty);
        if let TileKind::Maze(k) = kind
            && step < k
            && !ch.cargo.is_empty()
        {
            let cargo = std::mem::take(&mut ch.cargo);
            self.items_mut(x).add_all(cargo);
            ev.push(Event::PutDown {
                cell: x,
                items: cargo,
            });
        }
        kind
    }

    /// (e): a fighting unit attacks the enemies at its position (D-32: before the tile acts;
    /// nobody fights in the jungle), then Friday and a missionary there meet (R-FRIDAY-5).
    /// Whether the unit is still alive; a death here takes the cargo with it (D-44).
    fn arrive_among(
        &mut self,
        ch: &mut Chain,
        x: Cell,
        step: u8,
        kind: TileKind,
        enemies_there: bool,
        ev: &mut Vec<Event>,
    ) -> bool {
        let u = ch.unit;
        let team = self.units[u].team;
        if enemies_there && kind != TileKind::Jungle && self.units[u].fights() {
            let enemies: Vec<UnitId> = self
                .units_at(x, step)
                .filter(|&i| i != u && self.enemies(self.units[i].team, team))
                .collect();
            if !enemies.is_empty() {
                self.attack(team, x, &enemies, ev);
            }
        }
        self.friday_meets_missionary(Place::Land { cell: x, step }, x, ev);
        if self.units[u].alive() {
            return true;
        }
        let cargo = std::mem::take(&mut ch.cargo);
        self.lose(x, cargo, ev);
        false
    }

    /// R-CHAIN-4 with `restriction_kills` off: the whole cargo goes back to where the move
    /// started, and the unit goes on empty-handed.
    fn return_cargo(&mut self, ch: &mut Chain, ev: &mut Vec<Event>) {
        let back = std::mem::take(&mut ch.cargo);
        match ch.origin {
            ItemHome::Cell(c) => {
                self.items_mut(c).add_all(back);
                ev.push(Event::CargoReturned {
                    cell: c,
                    items: back,
                });
            }
            ItemHome::Vessel(v) => {
                // Gold picked up on the way (at a fork or horse) cannot lie aboard: it arrives
                // aboard like any cargo and scores (D-42).
                let cell = self.vessels[v].cell;
                ev.push(Event::CargoReturned { cell, items: back });
                self.deliver(v, back, ev);
            }
        }
    }

    pub(super) fn record_move(
        &self,
        ch: &Chain,
        from: Cell,
        to: Cell,
        motion: Motion,
        step: u8,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::Moved {
            unit: self.units[ch.unit].reference(),
            from,
            to,
            motion,
            step,
        });
    }

    /// R-CHAIN-2 (1) and (2): entering a sea cell.
    fn enter_sea(&mut self, ch: &mut Chain, x: Cell, ev: &mut Vec<Event>) -> Flow {
        let u = ch.unit;
        let team = self.units[u].team;
        if let Some(v) = self.vessel_at(x) {
            let cargo = std::mem::take(&mut ch.cargo);
            if self.allied(self.vessels[v].owner, team) {
                self.units.set_place(u, Place::Aboard(v));
                self.deliver(v, cargo, ev);
                self.friday_meets_missionary(Place::Aboard(v), x, ev);
            } else {
                // Death on an enemy vessel: the cargo arrives aboard it (R-CARGO-8).
                self.kill(u, x, DeathCause::EnemyVessel, ev);
                self.deliver(v, cargo, ev);
            }
            return Flow::Done;
        }
        let place = Place::Swim(x);
        let enemies = self.enemies_at(team, place);
        if self
            .entry_refusal(u, place, enemies, Coming::Forced)
            .is_some()
        {
            return self.die_in_chain(ch, DeathCause::Forbidden, ev);
        }
        // Friday let in among enemies meets missionaries, all of them (R-FRIDAY-4): he dies
        // with them before any boat is launched, and never attacks them (R-FIGHT-2).
        let friday_meets = self.units[u].is_friday() && enemies.any;
        if ch.cargo.count(super::item::Item::Boat) > 0 && !friday_meets {
            let cargo = std::mem::take(&mut ch.cargo);
            self.launch(u, x, cargo, ev);
            return Flow::Done;
        }
        let cargo = std::mem::take(&mut ch.cargo);
        self.lose(x, cargo, ev);
        self.units.set_place(u, place);
        // The enemies swimming there were counted above (`enemies`): most swims meet none.
        if enemies.any && self.units[u].fights() {
            let swimmers: Vec<UnitId> = self
                .swimmers_at(x)
                .filter(|&i| i != u && self.enemies(self.units[i].team, team))
                .collect();
            if !swimmers.is_empty() {
                self.attack(team, x, &swimmers, ev);
            }
        }
        self.friday_meets_missionary(place, x, ev);
        Flow::Done
    }

    /// The chain's unit dies: its cargo is lost (R-DEATH-2).
    pub(super) fn die_in_chain(
        &mut self,
        ch: &mut Chain,
        cause: DeathCause,
        ev: &mut Vec<Event>,
    ) -> Flow {
        self.kill_carrier(ch, cause, ev);
        Flow::Done
    }

    pub(super) fn kill_carrier(&mut self, ch: &Chain, cause: DeathCause, ev: &mut Vec<Event>) {
        let at = self.unit_cell(ch.unit).unwrap_or(Cell::new(0, 0));
        self.lose(at, ch.cargo, ev);
        self.kill(ch.unit, at, cause, ev);
    }

    /// After the chain: pending lighthouse reveals and the earthquake (R-CHAIN-8), then the
    /// turn ends.
    fn after_chain(&mut self, ev: &mut Vec<Event>) {
        if self.probe {
            return;
        }
        self.continue_after_chain(ev);
    }
}
