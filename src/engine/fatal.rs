//! The fatal flag of R-CHAIN-9 (D-14): a legal action is fatal when resolving it surely kills
//! the acting unit before any fog tile would be opened.
//!
//! The reference answer plays the action on a copy of the game that stops at the first fog
//! tile ([`Game::fatal_by_simulation`]); a choice is fatal only if every option is. Listing
//! legal actions needs the flag for every action on every ply, so two cheaper paths answer
//! first where they can: a glance at the target, and a walk along a deterministic chain
//! (single arrows, ice after a step, crocodiles, cannons, balloons) that mutates nothing. Both
//! return `None` whenever the case is not plain, and the property tests hold them to the
//! simulation on random games.

use std::ops::ControlFlow;

use super::action::{Action, Motion};
use super::board::{Board, Cell};
use super::entry::Coming;
use super::game::Game;
use super::item::Item;
use super::moves::Occupied;
use super::stack_vec::StackVec;
use super::tile::TileKind;
use super::unit::{Place, UnitKind, UnitRef};

const SEEN: usize = 48;
/// The (cell, motion) pairs a walk has entered (R-CHAIN-6 off mazes).
type Seen = StackVec<(Cell, Motion), SEEN>;

/// What does not change along a walk (but the cargo chosen again at a fork or horse).
#[derive(Clone, Copy)]
struct Walk<'a> {
    unit: super::unit::UnitId,
    team: super::unit::Team,
    cargo: super::item::Items,
    /// Where anyone stands, so the cells where nobody does are spared a look at every unit.
    occupied: &'a Occupied,
}

/// Where a crocodile sends the unit back to.
#[derive(Clone, Copy)]
enum Back {
    Cell(Cell),
    Aboard,
    /// A maze step or a plane seat: a crocodile's return there takes a simulation.
    Elsewhere,
}

/// "Fatal only if every option is": any known survivable option decides at once; otherwise an
/// unknown option leaves the answer unknown.
fn all_fatal(options: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut unknown = false;
    for o in options {
        match o {
            Some(false) => return Some(false),
            Some(true) => {}
            None => unknown = true,
        }
    }
    if unknown { None } else { Some(true) }
}

impl Game {
    /// R-CHAIN-9 for a legal action.
    pub(crate) fn is_fatal(&self, action: &Action) -> bool {
        self.is_fatal_among(action, &Occupied::ALL)
    }

    /// [`Game::is_fatal`], told where anyone stands (a listing builds that once for all its
    /// actions; [`Occupied::ALL`] says "maybe" everywhere).
    pub(crate) fn is_fatal_among(&self, action: &Action, occupied: &Occupied) -> bool {
        if let Some(answer) = self.fatal_at_a_glance(action) {
            return answer;
        }
        if let Some(answer) = self.fatal_by_walking(action, occupied) {
            return answer;
        }
        self.simulate_fatal(action, false)
    }

    /// The flag where it needs no look beyond the target's tile, as [`Game::is_fatal_among`]
    /// gives it: anything but a unit's move or a choice is never fatal; an ordinary unit's
    /// direct step (not Friday's or the missionary's, who die of meetings) is fatal only
    /// through a chain tile or the cannibal. `None` leaves it to `is_fatal_among`. Inlined
    /// into the listing, which asks it of every action.
    #[inline(always)]
    pub(crate) fn fatal_plainly(&self, action: &Action) -> Option<bool> {
        match *action {
            Action::Move { unit, to, .. }
                if self.pending.is_none()
                    && !matches!(unit, UnitKind::Friday | UnitKind::Missionary) =>
            {
                match self.open_kind(to) {
                    Some(k) if !k.is_stop() || k == TileKind::Cannibal => None,
                    _ => Some(false),
                }
            }
            Action::Move { .. } | Action::Choose { .. } => None,
            _ => Some(false),
        }
    }

    /// The reference answer, by simulation only (choice options included): for the tests
    /// that hold the cheaper paths to it.
    #[doc(hidden)]
    pub fn fatal_by_simulation(&self, action: &Action) -> bool {
        self.simulate_fatal(action, true)
    }

    /// Plays the action on a copy that stops at the first fog tile. With `pure`, options of a
    /// choice it reaches are simulated too; otherwise they take the cheap paths first.
    fn simulate_fatal(&self, action: &Action, pure: bool) -> bool {
        let mut copy = self.clone();
        copy.probe = true;
        copy.fatal_on_copy(action, pure)
    }

    /// The fatal flag where it is plain without playing the action on a copy (most actions):
    /// `None` when only a simulation can tell.
    fn fatal_at_a_glance(&self, action: &Action) -> Option<bool> {
        let (to, cargo) = match *action {
            Action::Move { to, cargo, .. } | Action::Choose { cell: to, cargo } => (to, cargo),
            _ => return Some(false),
        };
        let Some(p) = &self.pending else {
            // Friday and the missionary die of meetings and rum that ordinary units shrug
            // off (R-FRIDAY-4/5/6). (A converted missionary is ordinary, but rare: he is
            // judged like the others of his kind, just more slowly.)
            if let Action::Move {
                unit: unit @ (UnitKind::Friday | UnitKind::Missionary),
                ..
            } = *action
            {
                return self.meeting_free(unit, to);
            }
            // A legal direct step passes the checks of R-STEP-2, so only a chain tile or the
            // cannibal at the target can kill.
            return match self.open_kind(to) {
                Some(k) if !k.is_stop() || k == TileKind::Cannibal => None,
                _ => Some(false),
            };
        };
        // A reveal or a quake comes after the chain has ended: nobody moves (R-CHAIN-8).
        let Some(chain) = &p.chain else {
            return Some(false);
        };
        // A choice option: the unit enters `to` from inside a chain.
        let unit = &self.units[chain.unit];
        if unit.is_friday() || unit.is_missionary() {
            return None;
        }
        if self.board.is_sea(to) {
            if let Some(v) = self.vessel_at(to) {
                return Some(self.enemies(self.vessels[v].owner, unit.team));
            }
            let place = Place::Swim(to);
            let enemies = self.enemies_at(unit.team, place);
            return Some(
                self.entry_refusal(chain.unit, place, enemies, Coming::Forced)
                    .is_some(),
            );
        }
        if self.is_fog(to) {
            // Entering fog opens it first, unless the cargo restriction kills before (R-CHAIN-2).
            return Some(!cargo.is_empty() && self.settings.restriction_kills);
        }
        let kind = self.open_kind(to)?;
        let quiet = kind.is_stop()
            && !unit.is_friday()
            && !matches!(
                kind,
                TileKind::Cannibal | TileKind::Fortress | TileKind::ResFort | TileKind::Jungle
            )
            && !self.units.cells().any_of(0b1111, to)
            && !chain.visited.iter().any(|(c, _, _)| *c == to);
        if quiet { Some(false) } else { None }
    }

    /// Friday and an unconverted missionary die where they meet each other (R-FRIDAY-4/5) and
    /// on rum (R-FRIDAY-6); a missionary is eaten by the cannibal. None of that can happen on a
    /// direct step into fog (opened first), or onto a plain stop tile, a vessel or a sea cell
    /// where the other one is not: `Some(false)` there, `None` (simulate) anywhere else.
    fn meeting_free(&self, mover: UnitKind, to: Cell) -> Option<bool> {
        // The one it would die meeting: an unconverted missionary for Friday, Friday for the
        // missionary. Anyone else there changes nothing (enemies it cannot join make the step
        // illegal, R-STEP-2).
        let counterpart = |u: &super::unit::Unit| match mover {
            UnitKind::Friday => u.is_missionary(),
            _ => u.is_friday(),
        };
        let meets = |place: Place| {
            self.units
                .iter()
                .any(|u| counterpart(u) && u.place == place)
        };
        if self.board.is_sea(to) {
            let place = match self.vessel_at(to) {
                Some(v) => Place::Aboard(v),
                None => Place::Swim(to),
            };
            return (!meets(place)).then_some(false);
        }
        if self.is_fog(to) {
            return Some(false);
        }
        let tile = self.tile(to)?;
        let kind = tile.effective();
        if kind == TileKind::Barrel && mover == UnitKind::Friday {
            return Some(true); // rum kills him (R-FRIDAY-6), whoever else is there
        }
        let waiting_trigger = kind.has_trigger() && !tile.used;
        let anyone_met = self
            .units
            .iter()
            .any(|u| counterpart(u) && matches!(u.place, Place::Land { cell, .. } if cell == to));
        let quiet = kind.is_stop()
            && !matches!(kind, TileKind::Cannibal | TileKind::Barrel)
            && !waiting_trigger
            && !anyone_met;
        quiet.then_some(false)
    }

    /// Follows a chain that involves no choice, no fight and no special unit, without
    /// changing anything: `None` as soon as anything else comes up.
    fn fatal_by_walking(&self, action: &Action, occupied: &Occupied) -> Option<bool> {
        let (u, to, cargo, motion) = match (*action, &self.pending) {
            (Action::Move { unit, to, cargo }, None) => {
                let u = self.find_unit(UnitRef {
                    team: self.turn,
                    kind: unit,
                })?;
                let from = self.unit_cell(u)?;
                let motion = match self.units[u].place {
                    Place::Land { .. } if self.units[u].seat.is_some() => Motion::Flight,
                    Place::Land { cell, .. } if cell == to => return None,
                    _ => Motion::Step(Board::dir_between(from, to)?),
                };
                (u, to, cargo, motion)
            }
            (Action::Choose { cell, cargo }, Some(p)) => {
                let u = p.unit()?;
                let here = self.unit_cell(u)?;
                if p.kind == super::action::ChoiceKind::Cave {
                    return None;
                }
                let motion = Motion::of_choice(p.kind, here, cell)?;
                (u, cell, cargo, motion)
            }
            _ => return None,
        };
        let unit = &self.units[u];
        // A boat in the cargo changes nothing here: at sea the entry is judged before a launch,
        // and a launched boat is as safe as a swim. A ball fires the first cannon (below).
        if unit.is_friday() || unit.is_missionary() {
            return None;
        }
        let mut seen: Seen = StackVec::new();
        if let Some(chain) = self.pending.as_ref().and_then(|p| p.chain.as_ref()) {
            for &(c, step, m) in chain.visited.iter() {
                if step != 0 {
                    return None;
                }
                seen.push((c, m));
            }
        }
        // Where a crocodile would send the unit back: the previous position.
        let back = match unit.place {
            // From a plane seat too: back on the plane's cell, where it stands or sits again.
            Place::Land { cell, step: 0 } => Back::Cell(cell),
            Place::Land { .. } => Back::Elsewhere,
            Place::Aboard(_) => Back::Aboard,
            _ => return None,
        };
        let walk = Walk {
            unit: u,
            team: unit.team,
            cargo,
            occupied,
        };
        self.walk(&walk, to, motion, back, &mut seen, 0)
    }

    /// One entry of the walk, and what follows from it. `seen` is one list shared by the whole
    /// walk (no copy per entry): what this entry adds is taken off again on the way back.
    fn walk(
        &self,
        w: &Walk,
        x: Cell,
        m: Motion,
        back: Back,
        seen: &mut Seen,
        depth: u8,
    ) -> Option<bool> {
        let mark = seen.len();
        let answer = self.walk_from(w, x, m, back, seen, depth);
        seen.truncate(mark);
        answer
    }

    fn walk_from(
        &self,
        w: &Walk,
        x: Cell,
        m: Motion,
        back: Back,
        seen: &mut Seen,
        depth: u8,
    ) -> Option<bool> {
        if depth > 40 {
            return None;
        }
        if self.board.is_sea(x) {
            return Some(match self.vessel_at(x) {
                Some(v) => self.enemies(self.vessels[v].owner, w.team),
                // Nobody swims there: nobody to refuse the entry.
                None if !w.occupied.contains(x) => false,
                None => {
                    let place = Place::Swim(x);
                    let enemies = self.enemies_at(w.team, place);
                    self.entry_refusal(w.unit, place, enemies, Coming::Forced)
                        .is_some()
                }
            });
        }
        if self.is_fog(x) {
            return Some(!w.cargo.is_empty() && self.settings.restriction_kills);
        }
        let kind = self.open_kind(x)?;
        if matches!(kind, TileKind::Maze(_)) && !w.occupied.contains(x) {
            // Nobody on any step: it stands on step 1, cargo and all.
            return Some(false);
        }
        if matches!(kind, TileKind::Maze(_)) {
            // The chain ends on step 1, where only that step's units matter (R-MAZE-2): a
            // unit it may not join kills it; enemies bar its cargo (R-CHAIN-4); otherwise it
            // stands there, the enemies knocked out.
            let place = Place::Land { cell: x, step: 1 };
            let enemies = self.enemies_at(w.team, place);
            if self
                .entry_refusal(w.unit, place, enemies, Coming::Forced)
                .is_some()
            {
                return Some(true);
            }
            return Some(enemies.any && !w.cargo.is_empty() && self.settings.restriction_kills);
        }
        // The walker itself may stand where its chain comes back to (a crocodile, an arrow
        // pointing home): it is not there any more. Own and allied units change nothing for an
        // ordinary unit; enemies it may not join kill it, and a fight changes the board, which
        // only a simulation follows.
        if w.occupied.contains(x) && self.units_on_cell(x).any(|i| i != w.unit) {
            let place = Place::Land { cell: x, step: 0 };
            let enemies = self.enemies_at(w.team, place);
            if self
                .entry_refusal(w.unit, place, enemies, Coming::Forced)
                .is_some()
            {
                return Some(true);
            }
            if enemies.any {
                return None;
            }
        }
        if seen.as_slice().contains(&(x, m)) {
            return Some(true); // R-CHAIN-6
        }
        if seen.as_slice().len() == SEEN {
            return None;
        }
        seen.push((x, m));
        let restricted = matches!(
            kind,
            TileKind::Fortress | TileKind::ResFort | TileKind::Jungle
        );
        if restricted && !w.cargo.is_empty() {
            // R-CHAIN-4 on a stop tile: killed with the cargo, or it goes back and the unit
            // stands there.
            return Some(self.settings.restriction_kills);
        }
        let chooses_cargo =
            kind == TileKind::Horse || matches!(kind, TileKind::Arrow(exits) if exits.len() > 1);
        let empty_handed;
        let w = if chooses_cargo && self.settings.restriction_kills {
            // The cargo is chosen again here from hand and cell (R-CARGO-9). Cargo can only
            // add the restriction's death, unless a ball (a cannon fires it) or a boat (it
            // launches) could be taken: otherwise every option is fatal when the empty-handed
            // ones are, and the walk goes on empty-handed.
            let mut pool = self.items_at(x);
            pool.add_all(w.cargo);
            if pool.count(Item::Ball) > 0 || pool.count(Item::Boat) > 0 {
                return None;
            }
            empty_handed = Walk {
                cargo: super::item::Items::NONE,
                ..*w
            };
            &empty_handed
        } else {
            w
        };
        let here = Back::Cell(x);
        let mut go = |to: Option<Cell>, motion| self.walk(w, to?, motion, here, seen, depth + 1);
        match kind {
            TileKind::Cannibal => Some(true),
            TileKind::Arrow(exits) if exits.len() == 1 => {
                let d = exits.iter().next()?;
                go(self.board.step(x, d), Motion::Step(d))
            }
            // A fork: fatal only if every exit is (R-CHAIN-9). With restriction_kills off the
            // cargo kept or dropped there cannot change who dies on this walk.
            TileKind::Arrow(exits) => all_fatal(
                exits
                    .iter()
                    .map(|d| go(self.board.step(x, d), Motion::Step(d))),
            ),
            TileKind::Horse => self.jumps_fatal(x, &mut go),
            TileKind::Ice => match m {
                Motion::Step(d) => go(self.board.step(x, d), m),
                Motion::Jump(..) => self.jumps_fatal(x, &mut go),
                _ => None,
            },
            TileKind::Crocodile => match back {
                Back::Aboard => Some(false), // back aboard an own or allied vessel
                Back::Cell(c) => go(Some(c), m.reverse()),
                Back::Elsewhere => None,
            },
            // With a ball the cannon fires it and the unit stays there (R-BALL-1).
            TileKind::Cannon(_) if w.cargo.count(Item::Ball) > 0 => Some(false),
            TileKind::Cannon(d) => go(Some(self.board.first_sea(x, d)), Motion::Shot),
            TileKind::Balloon => Some(self.retreat_vessel(w.team, x).is_none()),
            // Where an ordinary unit ends its move alone it survives: the cannibal is above,
            // and only Friday and the missionary die of rum or of meeting each other.
            k if k.is_stop() => Some(false),
            _ => None,
        }
    }

    /// A knight-jump choice: fatal when every target is (none at all: R-CHAIN-7).
    fn jumps_fatal(
        &self,
        x: Cell,
        go: &mut dyn FnMut(Option<Cell>, Motion) -> Option<bool>,
    ) -> Option<bool> {
        let targets = self.knight_targets(x);
        all_fatal(targets.into_iter().map(|c| go(Some(c), Motion::jump(x, c))))
    }

    fn fatal_on_copy(&mut self, action: &Action, pure: bool) -> bool {
        let unit = match (action, &self.pending) {
            (_, Some(p)) => match p.unit() {
                Some(u) => u,
                None => return false,
            },
            (Action::Move { unit, .. }, None) => match self.find_unit(UnitRef {
                team: self.turn,
                kind: *unit,
            }) {
                Some(u) => u,
                None => return false,
            },
            _ => return false,
        };
        // Only listed (legal) actions are probed, so the checks can be skipped.
        self.apply(action, &mut Vec::new());
        if self.probe_hit_fog {
            return false;
        }
        if !self.units[unit].alive() {
            return true;
        }
        if self.pending.as_ref().is_some_and(|p| p.chain.is_some()) {
            // Fatal when every option is: stop at the first that is not. The options' flags
            // share one map of who stands where on this copy.
            let occupied = Occupied::of(self, 0);
            let mut all = true;
            let _ = self.visit_choice_options(&mut |o| {
                let fatal = if pure {
                    self.simulate_fatal(&o, true)
                } else {
                    self.is_fatal_among(&o, &occupied)
                };
                all &= fatal;
                if fatal {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            });
            return all;
        }
        false
    }
}
