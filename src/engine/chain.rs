//! Resolving a unit move: the direct step and the forced chain that follows (R-CHAIN), with
//! the tile effects of §12, fights and retreat (§11), delivery (R-SCORE-1) and death (§16).

use super::action::{ChoiceKind, Motion};
use super::board::{Board, Cell};
use super::event::{DeathCause, Event};
use super::game::{Chain, Game, ItemHome, Pending};
use super::item::Items;
use super::moves::entry_step;
use super::settings::PlaneSeats;
use super::tile::TileKind;
use super::unit::{Place, Seat, Team, UnitId, VesselId};

/// One movement into a cell. `step` overrides the maze step (crocodile returns, advancing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub cell: Cell,
    pub motion: Motion,
    pub step: Option<u8>,
}

impl Entry {
    fn new(cell: Cell, motion: Motion) -> Entry {
        Entry {
            cell,
            motion,
            step: None,
        }
    }
}

/// What the chain does after an entry.
enum Flow {
    Next(Entry),
    Choice(ChoiceKind),
    /// The unit stands on a land cell where the move ends.
    Stand,
    /// The chain is over already (aboard, swimming, dead, or a probe stopped at fog).
    Done,
}

impl Game {
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
        let from = self.place_cell(place).expect("a living unit");
        let motion = match place {
            Place::Land { cell, .. } if self.units[u].seat.is_some() => {
                self.take_off(u, cell, ev);
                Motion::Flight
            }
            Place::Land { cell, .. } if cell == to => Motion::Advance,
            _ => Motion::Step(Board::dir_between(from, to).expect("adjacent target")),
        };
        let step = match place {
            Place::Land { step, .. } if motion == Motion::Advance => Some(step + 1),
            _ => None,
        };
        let chain = Chain {
            unit: u,
            cargo,
            origin,
            visited: Vec::new(),
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

    /// Answers the pending exit/jump/flight choice: drop or take cargo where allowed, then go on.
    pub(crate) fn resume_chain(&mut self, cell: Cell, cargo: Items, ev: &mut Vec<Event>) {
        let Some(Pending { kind, mut chain }) = self.pending.take() else {
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
            let dropped = {
                let mut d = chain.cargo;
                d.remove_all(cargo);
                d
            };
            if !dropped.is_empty() {
                ev.push(Event::PutDown {
                    cell: here,
                    items: dropped,
                });
            }
            chain.cargo = cargo;
        }
        let motion = match kind {
            ChoiceKind::Exit => Motion::Step(Board::dir_between(here, cell).expect("an exit")),
            ChoiceKind::Jump => Motion::Jump(
                cell.col as i8 - here.col as i8,
                cell.row as i8 - here.row as i8,
            ),
            _ => Motion::Flight,
        };
        self.run_chain(chain, Entry::new(cell, motion), ev);
    }

    fn run_chain(&mut self, mut chain: Chain, mut entry: Entry, ev: &mut Vec<Event>) {
        loop {
            match self.enter(&mut chain, entry, ev) {
                Flow::Next(next) => entry = next,
                Flow::Choice(kind) => {
                    let options = {
                        self.pending = Some(Pending { kind, chain });
                        self.choice_options()
                    };
                    match options.as_slice() {
                        [] => {
                            // Nowhere to go (R-CHAIN-7).
                            let Some(Pending { chain, .. }) = self.pending.take() else {
                                unreachable!()
                            };
                            self.kill_carrier(&chain, DeathCause::NowhereToGo, ev);
                            break;
                        }
                        [only] => {
                            // A single option is applied automatically (R-TURN-3).
                            if let super::action::Action::Choose { cell, cargo } = *only {
                                self.resume_chain(cell, cargo, ev);
                            }
                            return;
                        }
                        _ => {
                            ev.push(Event::ChoiceRequired { kind });
                            return;
                        }
                    }
                }
                Flow::Stand => {
                    self.finish_on_land(&chain, ev);
                    break;
                }
                Flow::Done => break,
            }
        }
        self.after_chain(ev);
    }

    /// R-CHAIN-2: one entry of cell `entry.cell` by the chain's unit.
    fn enter(&mut self, ch: &mut Chain, entry: Entry, ev: &mut Vec<Event>) -> Flow {
        let u = ch.unit;
        let x = entry.cell;
        let team = self.units[u].team;
        let from_place = self.units[u].place;
        let from = self.place_cell(from_place).expect("a living unit");

        if self.board.is_sea(x) {
            if ch.visited.contains(&(x, 0, entry.motion)) {
                return self.die_in_chain(ch, DeathCause::Loop, ev);
            }
            ch.visited.push((x, 0, entry.motion));
            self.record_move(ch, from, x, entry.motion, 0, ev);
            return self.enter_sea(ch, x, ev);
        }

        // (c) comes after (a) and (b), but fog never holds units or repeats a visit, so the
        // loop and placement checks below only concern open tiles.
        let was_fog = self.is_fog(x);
        let mut step = 0;
        if !was_fog {
            step = entry
                .step
                .unwrap_or_else(|| entry_step(self, x, self.units[u].is_friday()));
            if ch.visited.contains(&(x, step, entry.motion)) {
                self.record_move(ch, from, x, entry.motion, step, ev);
                return self.die_in_chain(ch, DeathCause::Loop, ev);
            }
            // (a) places the unit may not enter (R-CHAIN-3).
            if self.may_not_enter(u, x, step) {
                self.record_move(ch, from, x, entry.motion, step, ev);
                return self.die_in_chain(ch, DeathCause::Forbidden, ev);
            }
        }
        // (b) cargo restriction (R-CHAIN-4).
        if !ch.cargo.is_empty() && self.cargo_may_not_enter(team, x, step) {
            if self.settings.restriction_kills {
                self.record_move(ch, from, x, entry.motion, step, ev);
                return self.die_in_chain(ch, DeathCause::Restriction, ev);
            }
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
                    // Gold picked up on the way (at a fork or horse) cannot lie aboard: it
                    // arrives aboard like any cargo and scores (R-CARGO-1, R-CARGO-7).
                    let cell = self.vessels[v].cell;
                    ev.push(Event::CargoReturned { cell, items: back });
                    self.deliver(v, back, ev);
                }
            }
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
            step = entry_step(self, x, self.units[u].is_friday());
        }
        ch.visited.push((x, step, entry.motion));
        // (d) place the unit.
        if !was_fog {
            self.record_move(ch, from, x, entry.motion, step, ev);
        }
        self.units[u].place = Place::Land { cell: x, step };
        let kind = self.open_kind(x).unwrap_or(TileKind::Empty);
        if let TileKind::Maze(k) = kind
            && step < k
            && !ch.cargo.is_empty()
        {
            // R-MAZE-3: the cargo goes straight to the last step.
            let cargo = std::mem::take(&mut ch.cargo);
            self.items_mut(x).add_all(cargo);
            ev.push(Event::PutDown {
                cell: x,
                items: cargo,
            });
        }
        // (e) fights.
        if kind != TileKind::Jungle
            && self.units[u].fights()
            && self.enemies_at(team, Place::Land { cell: x, step }).any
        {
            let at: Vec<UnitId> = self.units_at(x, step).filter(|&i| i != u).collect();
            let enemies = self.enemies_among(team, &at);
            self.attack(u, x, &enemies, ev);
        }
        self.friday_meets_missionary(Place::Land { cell: x, step }, x, ev);
        if !self.units[u].alive() {
            return Flow::Done;
        }
        // (f) the tile's effect.
        match kind {
            TileKind::Arrow(exits) => {
                if exits.len() == 1 {
                    let d = exits.iter().next().expect("one exit");
                    let next = self.board.step(x, d).expect("land neighbours exist");
                    Flow::Next(Entry::new(next, Motion::Step(d)))
                } else {
                    Flow::Choice(ChoiceKind::Exit)
                }
            }
            TileKind::Horse => Flow::Choice(ChoiceKind::Jump),
            TileKind::Ice => match entry.motion {
                Motion::Step(d) => {
                    let next = self.board.step(x, d).expect("land neighbours exist");
                    Flow::Next(Entry::new(next, Motion::Step(d)))
                }
                Motion::Jump(..) => Flow::Choice(ChoiceKind::Jump),
                Motion::Flight => Flow::Choice(ChoiceKind::Flight),
                _ => Flow::Stand,
            },
            TileKind::Crocodile => {
                // R-CROC-1: back to the exact position the unit came from.
                let back = from_place;
                let cell = self.place_cell(back).expect("a real position");
                let step = match back {
                    Place::Land { step, .. } => Some(step),
                    _ => None,
                };
                Flow::Next(Entry {
                    cell,
                    motion: entry.motion.reverse(),
                    step,
                })
            }
            TileKind::Cannon(d) => {
                let mut c = x;
                loop {
                    c = self
                        .board
                        .step(c, d)
                        .expect("a barrel always meets the sea");
                    if self.board.is_sea(c) {
                        break;
                    }
                }
                Flow::Next(Entry::new(c, Motion::Shot))
            }
            TileKind::Balloon => match self.retreat_vessel(team, x) {
                Some(v) => Flow::Next(Entry::new(self.vessels[v].cell, Motion::Balloon)),
                None => self.die_in_chain(ch, DeathCause::NoVessel, ev),
            },
            _ => Flow::Stand,
        }
    }

    fn record_move(
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
                self.units[u].place = Place::Aboard(v);
                self.deliver(v, cargo, ev);
            } else {
                // Death on an enemy vessel: the cargo arrives aboard it (R-CARGO-8).
                self.kill(u, x, DeathCause::EnemyVessel, ev);
                self.deliver(v, cargo, ev);
            }
            return Flow::Done;
        }
        let swimmers: Vec<UnitId> = self.swimmers_at(x).collect();
        let enemies = self.enemies_among(team, &swimmers);
        let unit = self.units[u];
        let blocked_by_missionary = enemies.iter().any(|&e| self.units[e].is_missionary());
        let harmless = unit.is_missionary() || unit.is_friday();
        if (blocked_by_missionary && !unit.is_friday()) || (harmless && !enemies.is_empty()) {
            return self.die_in_chain(ch, DeathCause::Forbidden, ev);
        }
        let cargo = std::mem::take(&mut ch.cargo);
        if !cargo.is_empty() {
            self.lose(x, cargo, ev);
        }
        self.units[u].place = Place::Swim(x);
        for e in enemies {
            self.kill(e, x, DeathCause::Drowned, ev);
        }
        Flow::Done
    }

    /// R-CHAIN-3: a land position the unit may not enter.
    fn may_not_enter(&self, u: UnitId, x: Cell, step: u8) -> bool {
        let unit = &self.units[u];
        let kind = self.open_kind(x);
        if kind.is_some_and(TileKind::is_fortress)
            && self
                .units_on_cell(x)
                .any(|i| i != u && self.enemies(self.units[i].team, unit.team))
        {
            return true;
        }
        if kind == Some(TileKind::Jungle) {
            return false;
        }
        // The unit itself is not yet there: `enemies_at` sees only the others.
        let enemies = self.enemies_at(unit.team, Place::Land { cell: x, step });
        enemies.any
            && ((enemies.any_missionary && !unit.is_friday())
                || unit.is_missionary()
                || (unit.is_friday() && !enemies.all_missionaries))
    }

    /// R-CARGO-5 for a chain: fog, fortress, jungle, or a land position holding enemies.
    fn cargo_may_not_enter(&self, team: Team, x: Cell, step: u8) -> bool {
        if self.board.is_sea(x) {
            return false;
        }
        if self.is_fog(x) {
            return true;
        }
        let kind = self.open_kind(x).unwrap_or(TileKind::Empty);
        if kind.is_fortress() || kind == TileKind::Jungle {
            return true;
        }
        self.units_at(x, step)
            .any(|i| self.enemies(self.units[i].team, team))
    }

    /// R-FRIDAY-5: Friday and an unconverted missionary together both die.
    pub(crate) fn friday_meets_missionary(&mut self, place: Place, at: Cell, ev: &mut Vec<Event>) {
        // Checked after every entry; most games have no Friday at all.
        if !self.units.iter().any(|o| o.place == place && o.is_friday()) {
            return;
        }
        let here: Vec<UnitId> = self
            .units
            .enumerate()
            .filter(|(_, o)| o.place == place)
            .map(|(i, _)| i)
            .collect();
        let friday = here.iter().copied().find(|&i| self.units[i].is_friday());
        let missionaries: Vec<UnitId> = here
            .iter()
            .copied()
            .filter(|&i| self.units[i].is_missionary())
            .collect();
        if let Some(f) = friday
            && !missionaries.is_empty()
        {
            self.kill(f, at, DeathCause::FridayMissionary, ev);
            for m in missionaries {
                self.kill(m, at, DeathCause::FridayMissionary, ev);
            }
        }
    }

    /// R-FIGHT-4: the attacker knocks out every enemy at its position.
    fn attack(&mut self, u: UnitId, x: Cell, enemies: &[UnitId], ev: &mut Vec<Event>) {
        let team = self.units[u].team;
        for &e in enemies {
            if self.units[e].is_friday() {
                self.units[e].team = team;
                ev.push(Event::Joined {
                    unit: self.units[e].reference(),
                    team,
                });
            } else {
                self.knock_out(e, x, ev);
            }
        }
    }

    /// R-FIGHT-4, R-RETREAT: to the retreat vessel, losing drunk, trapped, stuck and seated.
    pub(crate) fn knock_out(&mut self, e: UnitId, from: Cell, ev: &mut Vec<Event>) {
        let team = self.units[e].team;
        match self.retreat_vessel(team, from) {
            Some(v) => {
                let unit = &mut self.units[e];
                unit.place = Place::Aboard(v);
                unit.drunk = false;
                unit.sobers_this_turn = false;
                unit.trapped = false;
                unit.seat = None;
                ev.push(Event::KnockedOut {
                    unit: unit.reference(),
                    from,
                    to: self.vessels[v].cell,
                });
            }
            None => self.kill(e, from, DeathCause::NoVessel, ev),
        }
    }

    /// R-RETREAT-1..3: the nearest own vessel, else the nearest allied one.
    pub(crate) fn retreat_vessel(&self, team: Team, from: Cell) -> Option<VesselId> {
        let pick = |own: bool| {
            self.vessels
                .enumerate()
                .filter(|(_, v)| {
                    !v.sunk
                        && if own {
                            v.owner == team
                        } else {
                            self.allied(v.owner, team)
                        }
                })
                .min_by_key(|(_, v)| {
                    (
                        Board::distance(from, v.cell, self.settings.retreat_distance),
                        v.boat,
                        v.owner != team,
                        self.board.index(v.cell),
                    )
                })
                .map(|(i, _)| i)
        };
        pick(true).or_else(|| pick(false))
    }

    /// Cargo arriving aboard: gold scores for the owner, other items lie aboard (R-CARGO-7).
    fn deliver(&mut self, v: VesselId, cargo: Items, ev: &mut Vec<Event>) {
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

    /// Items leave the game.
    fn lose(&mut self, cell: Cell, items: Items, ev: &mut Vec<Event>) {
        let points = items.gold_points();
        if points > 0 {
            self.lost_gold = self.lost_gold.saturating_add(points);
            self.progress = true;
        }
        ev.push(Event::Lost { cell, items });
    }

    /// The chain's unit dies: its cargo is lost (R-DEATH-2).
    fn die_in_chain(&mut self, ch: &mut Chain, cause: DeathCause, ev: &mut Vec<Event>) -> Flow {
        self.kill_carrier(ch, cause, ev);
        Flow::Done
    }

    fn kill_carrier(&mut self, ch: &Chain, cause: DeathCause, ev: &mut Vec<Event>) {
        let at = self.unit_cell(ch.unit).unwrap_or(Cell::new(0, 0));
        if !ch.cargo.is_empty() {
            self.lose(at, ch.cargo, ev);
        }
        self.kill(ch.unit, at, cause, ev);
    }

    /// A unit dies (R-DEATH): ordinary pirates stay recorded dead; others leave for good.
    pub(crate) fn kill(&mut self, u: UnitId, at: Cell, cause: DeathCause, ev: &mut Vec<Event>) {
        let unit = &mut self.units[u];
        unit.place = Place::Dead;
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

    /// R-OPEN-1, "opened by a unit" column, for the classic tiles.
    fn open_by_unit(&mut self, x: Cell, ev: &mut Vec<Event>) {
        self.progress = true;
        let tile = self.tile_mut(x);
        tile.open = true;
        let kind = tile.kind;
        ev.push(Event::Opened { cell: x, kind });
        let appeared = match kind {
            TileKind::Chest(k) => {
                let mut s = Items::NONE;
                s.add(super::item::Item::Coin, k);
                s
            }
            TileKind::Bullion => Items::one(super::item::Item::Bar),
            _ => Items::NONE,
        };
        if kind.acts_on_opening() {
            self.tile_mut(x).used = true;
        }
        if !appeared.is_empty() {
            self.items_mut(x).add_all(appeared);
            ev.push(Event::Appeared {
                cell: x,
                items: appeared,
            });
        }
    }

    /// R-CHAIN-2 (g): the chain ends on a land cell.
    fn finish_on_land(&mut self, ch: &Chain, ev: &mut Vec<Event>) {
        let u = ch.unit;
        let Place::Land { cell: x, step } = self.units[u].place else {
            return;
        };
        let kind = self.open_kind(x).unwrap_or(TileKind::Empty);
        let friday = self.units[u].is_friday();
        if kind == TileKind::Cannibal && !friday {
            // R-CANNIBAL-1: eaten with the cargo.
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
        let reference = self.units[u].reference();
        match kind {
            TileKind::Trap => {
                let others: Vec<UnitId> = self.units_at(x, step).filter(|&i| i != u).collect();
                if others.is_empty() {
                    if !friday {
                        self.units[u].trapped = true;
                        ev.push(Event::Trapped { unit: reference });
                    }
                } else {
                    for o in others {
                        if self.units[o].trapped {
                            self.units[o].trapped = false;
                            ev.push(Event::Freed {
                                unit: self.units[o].reference(),
                            });
                        }
                    }
                }
            }
            TileKind::Barrel => {
                if friday {
                    self.kill(u, x, DeathCause::Rum, ev);
                } else {
                    if self.units[u].is_missionary() {
                        self.units[u].converted = true;
                    }
                    self.units[u].drunk = true;
                    ev.push(Event::Drunk { unit: reference });
                }
            }
            TileKind::Plane => {
                let place = self.units[u].place;
                let seated: Vec<_> = self
                    .units
                    .iter()
                    .filter(|o| o.alive() && o.place == place)
                    .filter_map(|o| o.seat)
                    .collect();
                let seat = if !seated.contains(&Seat::Pilot) {
                    Some(Seat::Pilot)
                } else if self.settings.plane_seats != PlaneSeats::One
                    && !seated.contains(&Seat::Passenger)
                {
                    Some(Seat::Passenger)
                } else {
                    None
                };
                if let Some(seat) = seat {
                    self.units[u].seat = Some(seat);
                    ev.push(Event::Seated {
                        unit: reference,
                        seat,
                    });
                }
            }
            _ => {}
        }
    }

    /// After the chain: pending reveals and quakes (expansion), then the turn ends.
    fn after_chain(&mut self, ev: &mut Vec<Event>) {
        if self.probe {
            return;
        }
        self.end_turn(ev);
    }
}
