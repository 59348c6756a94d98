//! Which actions are legal (R-STEP, R-VESSEL-3, R-RESFORT-2, R-PLANE-5) and, for a refused
//! one, the first reason in the order the rules give.
//!
//! Legal-action listing and validation share one checker, so the list can never disagree
//! with what `play` accepts.

use std::ops::ControlFlow;

use super::action::{Action, LegalAction};
use super::board::{Cell, Side};
use super::entry::{Coming, entry_step};
use super::error::ErrorKind;
use super::game::{Game, team_side};
use super::item::{Item, Items};
use super::settings::{PlaneSeats, Players};
use super::stack_vec::StackVec;
use super::team_cells::CellSet;
use super::tile::{Tile, TileKind};
use super::unit::{Place, Seat, Team, UnitId, UnitKind, UnitRef, VesselId};

/// What a target accepts, found once for every cargo a unit could take there.
#[derive(Clone, Copy)]
enum Accepts {
    /// An empty-handed step; cargo too when `cargo_too`.
    Empty { cargo_too: bool },
    /// Only a launch: cargo holding a boat, checked in full.
    Launch,
}

/// The unit whose moves are being listed: what stays the same over its targets.
struct Mover<'a> {
    u: UnitId,
    here: Option<Cell>,
    /// The cargo selections it may take where it stands, the empty hand first.
    selections: &'a [Items],
}

/// Who stands or swims where, and where vessels float, as one bit per cell. Built for a listing
/// (or a check) from the sets the units keep ([`TeamCells`](super::team_cells::TeamCells)) and
/// the few vessels, it decides most candidate targets without a scan of every unit or vessel.
pub(crate) struct Occupied {
    /// Cells where a living unit stands or swims.
    any: CellSet,
    /// Cells where an enemy of the listing's team stands or swims. `check_step` trusts a clear
    /// bit here to skip every check about enemies: a map built for no team (`Occupied::of(game,
    /// 0)`, as the fatal flags build it) must not reach it.
    enemy: CellSet,
    /// Cells holding a vessel afloat.
    vessels: CellSet,
}

impl Occupied {
    /// Anyone anywhere, for a single check, where building the set would cost more than it
    /// saves.
    pub const ALL: Occupied = Occupied {
        any: CellSet::ALL,
        enemy: CellSet::ALL,
        vessels: CellSet::ALL,
    };

    /// The positions as `team` sees them: `enemy_teams` holds its enemies' bits
    /// (`team.index()`). Inlined into the listing: as a call it cost a spill of every word.
    #[inline(always)]
    pub fn of(game: &Game, enemy_teams: u8) -> Occupied {
        let cells = game.units.cells();
        let mut out = Occupied {
            any: cells.of_teams(0b1111),
            enemy: cells.of_teams(enemy_teams),
            vessels: CellSet::default(),
        };
        for v in game.vessels.iter().filter(|v| !v.sunk) {
            out.vessels.insert(v.cell);
        }
        out
    }

    /// Exact on `cell` as `team` sees it, anyone anywhere else ([`Occupied::ALL`]): for the one
    /// target `play` checks, a look at that cell alone rather than the whole map.
    pub fn at(game: &Game, cell: Cell, team: Team) -> Occupied {
        let cells = game.units.cells();
        let mut out = Occupied::ALL;
        if !cells.any_of(0b1111, cell) {
            out.any.remove(cell);
        }
        if !cells.any_of(game.enemy_teams(team), cell) {
            out.enemy.remove(cell);
        }
        out
    }

    pub fn contains(&self, cell: Cell) -> bool {
        self.any.contains(cell)
    }

    pub fn enemy_at(&self, cell: Cell) -> bool {
        self.enemy.contains(cell)
    }

    pub fn vessel_at(&self, cell: Cell) -> bool {
        self.vessels.contains(cell)
    }
}

impl Game {
    /// Direct-step targets of a unit (R-STEP-1), cargo aside; flights from a seat included.
    pub(crate) fn step_targets(&self, u: UnitId, out: &mut impl Extend<Cell>) {
        let unit = &self.units[u];
        let board = self.board;
        match unit.place {
            Place::Land { cell, step } => {
                if unit.seat.is_some() {
                    if self.is_lander(u) {
                        out.extend(board.land_cells().filter(|c| *c != cell));
                    }
                    return;
                }
                let k = self.maze_steps(cell);
                if k > 0 && step < k {
                    out.extend([cell]);
                    return;
                }
                if self.tunnel_open(u, cell) {
                    out.extend([cell]);
                }
                // Plain sea is a launch target only; `check_move` decides with the cargo.
                out.extend(board.neighbours(cell));
            }
            Place::Aboard(v) => {
                let vessel = &self.vessels[v];
                if vessel.boat {
                    out.extend(board.neighbours(vessel.cell).filter(|c| board.is_land(*c)));
                } else if let Some(front) = board.front_cell(vessel.cell) {
                    out.extend([front]);
                }
                out.extend(self.vessels_alongside(vessel.cell));
            }
            Place::Swim(cell) => out.extend(board.neighbours(cell).filter(|c| board.is_sea(*c))),
            Place::Tunnel(_) | Place::Dead => {}
        }
    }

    /// The cells of the vessels next to `at`, in direction order: where a unit aboard there
    /// may step onto another vessel. Found from the few vessels; they are seldom side by side,
    /// so a plain distance test spares most of them the direction lookup.
    fn vessels_alongside(&self, at: Cell) -> impl Iterator<Item = Cell> + use<> {
        let mut dirs = super::board::DirSet::default();
        for other in self.vessels.iter().filter(|o| !o.sunk) {
            let near = other.cell.col.abs_diff(at.col) <= 1 && other.cell.row.abs_diff(at.row) <= 1;
            if near && let Some(d) = super::board::Board::dir_between(at, other.cell) {
                dirs.0 |= 1 << d.index();
            }
        }
        let board = self.board;
        dirs.iter().filter_map(move |d| board.step(at, d))
    }

    /// R-CAVE-5/7: may the unit standing on `cell` go into the tunnel (an open cave with an
    /// exit)?
    fn tunnel_open(&self, u: UnitId, cell: Cell) -> bool {
        self.open_kind(cell) == Some(TileKind::Cave) && self.has_tunnel_exit(u, cell)
    }

    /// R-PLANE-5: is this seated unit the one that may fly now?
    pub(crate) fn is_lander(&self, u: UnitId) -> bool {
        let unit = &self.units[u];
        let Some(seat) = unit.seat else { return false };
        if !unit.able() {
            return false;
        }
        let team = unit.team;
        match self.settings.plane_seats {
            PlaneSeats::One | PlaneSeats::Chosen => true,
            PlaneSeats::Two => match seat {
                Seat::Passenger => true,
                Seat::Pilot => {
                    let cell = self.unit_cell(u);
                    !self.units.iter().any(|o| {
                        o.seat == Some(Seat::Passenger)
                            && o.team == team
                            && o.able()
                            && o.alive()
                            && o.place == unit.place
                            && cell.is_some()
                    })
                }
            },
        }
    }

    /// R-STEP-2: the first reason a unit move is illegal, or the unit that moves.
    pub(crate) fn check_move(
        &self,
        team: Team,
        kind: UnitKind,
        to: Cell,
        cargo: Items,
    ) -> Result<UnitId, ErrorKind> {
        let u = self
            .find_unit(UnitRef { team, kind })
            .ok_or(ErrorKind::NoSuchUnit)?;
        if !self.units[u].able() {
            return Err(ErrorKind::UnitDisabled);
        }
        if !self.is_step_target(u, to) {
            return Err(ErrorKind::Unreachable);
        }
        self.check_step(u, to, cargo, &Occupied::at(self, to, team))?;
        Ok(u)
    }

    /// Is `to` one of the unit's direct-step targets? The same answer as [`Game::step_targets`]
    /// without building the list.
    fn is_step_target(&self, u: UnitId, to: Cell) -> bool {
        let unit = &self.units[u];
        let board = self.board;
        if !board.exists(to) {
            return false;
        }
        match unit.place {
            Place::Land { cell, step } => {
                if unit.seat.is_some() {
                    return self.is_lander(u) && board.is_land(to) && to != cell;
                }
                let k = self.maze_steps(cell);
                if k > 0 && step < k {
                    return to == cell;
                }
                board.adjacent(cell, to) || (to == cell && self.tunnel_open(u, cell))
            }
            Place::Aboard(v) => {
                let vessel = &self.vessels[v];
                let onto_vessel = board.adjacent(vessel.cell, to) && self.vessel_at(to).is_some();
                if vessel.boat {
                    onto_vessel || (board.adjacent(vessel.cell, to) && board.is_land(to))
                } else {
                    onto_vessel || board.front_cell(vessel.cell) == Some(to)
                }
            }
            Place::Swim(cell) => board.adjacent(cell, to) && board.is_sea(to),
            Place::Tunnel(_) | Place::Dead => false,
        }
    }

    /// R-STEP-2 checks 3 (launch) to 9 for a unit able to act and a target it can reach.
    fn check_step(
        &self,
        u: UnitId,
        to: Cell,
        cargo: Items,
        occupied: &Occupied,
    ) -> Result<(), ErrorKind> {
        let unit = &self.units[u];
        let team = unit.team;
        let board = self.board;
        // Targets always exist; land cells hold a tile, sea cells none. One lookup serves every
        // question below: this runs for every candidate move.
        let tile = self.tiles[board.index(to)];
        let sea = tile.is_none();
        let vessel = if sea { self.vessel_at(to) } else { None };
        let from_land = matches!(unit.place, Place::Land { .. });
        if from_land
            && unit.seat.is_none()
            && sea
            && vessel.is_none()
            && cargo.count(Item::Boat) == 0
        {
            return Err(ErrorKind::Unreachable);
        }
        if let Some(v) = vessel
            && self.enemies(self.vessels[v].owner, team)
        {
            return Err(ErrorKind::EnemyVessel);
        }
        if !cargo.is_empty() {
            let available = self
                .home_of(unit.place)
                .map_or(Items::NONE, |h| self.home_items(h));
            if !unit.carries() || !cargo.within_capacity() || !available.contains(cargo) {
                return Err(ErrorKind::BadCargo);
            }
        }
        if vessel.is_some() {
            return Ok(());
        }
        if let Place::Land { cell, .. } = unit.place
            && cell == to
            && unit.seat.is_none()
            && self.maze_steps(to) == 0
        {
            // Into the tunnel (R-CAVE-5/7): the exit holds nobody the unit could meet, and a
            // cave takes cargo.
            return Ok(());
        }
        let place = if sea {
            Place::Swim(to)
        } else {
            let step = match unit.place {
                Place::Land { cell, step } if cell == to && unit.seat.is_none() => step + 1,
                _ => entry_step(self, to, unit.is_friday()),
            };
            Place::Land { cell: to, step }
        };
        // Most targets hold no enemy (empty, or the mover's own side): nobody there to refuse
        // the entry (an enemy fortress needs an enemy in it, and without enemies R-STEP-2
        // checks 7 and 8 have nothing to say), no enemy to bar cargo.
        let enemy_there = occupied.enemy_at(to);
        if enemy_there {
            let enemies = self.enemies_at(team, place);
            if let Some(refusal) = self.entry_refusal(u, place, enemies, Coming::Direct) {
                return Err(refusal);
            }
        }
        if !cargo.is_empty() && !sea && self.cargo_barred_where(team, place, enemy_there) {
            return Err(ErrorKind::CargoForbidden);
        }
        Ok(())
    }

    /// R-VESSEL-3, R-SHIP-1, R-BOAT-1.
    pub(crate) fn check_vessel_move(
        &self,
        team: Team,
        v: VesselId,
        to: Cell,
    ) -> Result<(), ErrorKind> {
        let vessel = &self.vessels[v];
        let board = self.board;
        let shape_ok = if vessel.boat {
            board.adjacent(vessel.cell, to) && board.is_sea(to)
        } else {
            let side: Side = team_side(self.settings.players, vessel.owner);
            // Two adjacent slots of one side are always in line: no corner is turned.
            board.is_slot_of(to, side) && board.adjacent(vessel.cell, to)
        };
        // The cheap geometric checks first: this runs for every neighbour of every vessel.
        if vessel.owner != team || vessel.sunk || !shape_ok || self.vessel_at(to).is_some() {
            return Err(ErrorKind::VesselCannotMove);
        }
        if !self.crewed(team, v) {
            return Err(ErrorKind::VesselCannotMove);
        }
        if self
            .swimmers_at(to)
            .any(|i| self.units[i].is_missionary() && self.enemies(self.units[i].team, team))
        {
            return Err(ErrorKind::EnemyMissionary);
        }
        Ok(())
    }

    /// R-VESSEL-3: an own fighting unit able to act is aboard.
    pub(crate) fn crewed(&self, team: Team, v: VesselId) -> bool {
        self.aboard(v)
            .any(|i| self.units[i].team == team && self.units[i].sails() && self.units[i].able())
    }

    /// R-RESFORT-2: the resurrection fortress cells where `team` may resurrect now.
    pub(crate) fn resurrection_cells(&self, team: Team) -> Vec<Cell> {
        let has_dead = self
            .units
            .iter()
            .any(|u| u.team == team && u.kind.is_pirate() && !u.alive());
        if !has_dead {
            return Vec::new();
        }
        let mut cells: Vec<Cell> = self
            .units
            .iter()
            .filter(|u| u.team == team && u.sails() && u.able())
            .filter_map(|u| match u.place {
                Place::Land { cell, .. } if self.open_kind(cell) == Some(TileKind::ResFort) => {
                    Some(cell)
                }
                _ => None,
            })
            .collect();
        cells.sort();
        cells.dedup();
        cells
    }

    /// Calls `visit` with each legal main action of `team`, until it says stop. No
    /// allocation: this also answers "can this team act?" at the start of every turn.
    pub(super) fn visit_main_actions(
        &self,
        team: Team,
        visit: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) {
        let _ = self.visit_main_actions_until(team, visit);
    }

    fn visit_main_actions_until(
        &self,
        team: Team,
        visit: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let occupied = Occupied::of(self, self.enemy_teams(team));
        // Flights reach every land cell but one: 128 covers the largest island (117).
        let mut targets: StackVec<Cell, 128> = StackVec::new();
        let mut selections: StackVec<Items, 24> = StackVec::new();
        // What a resurrection needs (R-RESFORT-2), noted on the way through the units: most
        // plies have no dead pirate or nobody in the fortress.
        let mut dead_pirate = false;
        let mut in_resfort = false;
        // The vessels (bits of their ids) with an own able sailor aboard (R-VESSEL-3), noted on
        // the same way: spares each own vessel a pass over every unit.
        let mut crewed: u64 = 0;
        for (u, unit) in self.units.enumerate() {
            if unit.team != team {
                continue;
            }
            if !unit.alive() {
                dead_pirate |= unit.kind.is_pirate();
                continue;
            }
            if !unit.able() {
                continue;
            }
            if let Place::Land { cell, .. } = unit.place
                && unit.sails()
                && self.open_kind(cell) == Some(TileKind::ResFort)
            {
                in_resfort = true;
            }
            if let Place::Aboard(v) = unit.place
                && unit.sails()
            {
                crewed |= 1u64.checked_shl(v.0.into()).unwrap_or(0);
            }
            let pool = self
                .home_of(unit.place)
                .map_or(Items::NONE, |h| self.home_items(h));
            selections.clear();
            // Most units stand where nothing lies: the empty hand is the only selection.
            if unit.carries() && !pool.is_empty() {
                pool.each_selection(|s| selections.push(s));
            } else {
                selections.push(Items::NONE);
            }
            let mover = Mover {
                u,
                here: self.unit_cell(u),
                selections: selections.as_slice(),
            };
            match unit.place {
                // A unit standing on land off a plane seat and past a maze's steps (most of
                // them): its targets straight from the board, without the list.
                Place::Land { cell, step }
                    if unit.seat.is_none() && step >= self.maze_steps(cell) =>
                {
                    if self.tunnel_open(u, cell) {
                        self.visit_unit_moves(&mover, cell, &occupied, visit)?;
                    }
                    for to in self.board.neighbours(cell) {
                        self.visit_unit_moves(&mover, to, &occupied, visit)?;
                    }
                }
                // Swimming (many units once thrown or knocked into the sea): the sea around.
                Place::Swim(cell) => {
                    for to in self.board.neighbours(cell) {
                        if self.board.is_sea(to) {
                            self.visit_unit_moves(&mover, to, &occupied, visit)?;
                        }
                    }
                }
                // Aboard a ship (every unit at the start): the cell in front, then the vessels
                // alongside, as `step_targets` lists them.
                Place::Aboard(v) if !self.vessels[v].boat => {
                    let at = self.vessels[v].cell;
                    if let Some(front) = self.board.front_cell(at) {
                        self.visit_unit_moves(&mover, front, &occupied, visit)?;
                    }
                    for to in self.vessels_alongside(at) {
                        self.visit_unit_moves(&mover, to, &occupied, visit)?;
                    }
                }
                _ => {
                    targets.clear();
                    self.step_targets(u, &mut targets);
                    for &to in targets.as_slice() {
                        self.visit_unit_moves(&mover, to, &occupied, visit)?;
                    }
                }
            }
        }
        for v in self.vessels.ids() {
            if self.vessels[v].owner != team || self.vessels[v].sunk {
                continue;
            }
            // Past the 64th vessel (no real game launches that many boats) the plain check.
            let crewed = match 1u64.checked_shl(v.0.into()) {
                Some(bit) => crewed & bit != 0,
                None => self.crewed(team, v),
            };
            debug_assert_eq!(crewed, self.crewed(team, v));
            if !crewed {
                continue;
            }
            let from = self.vessels[v].cell;
            let boat = self.vessels[v].boat;
            let side = team_side(self.settings.players, self.vessels[v].owner);
            for to in self.board.neighbours(from) {
                // The shape first: a ship keeps to its side's slots, a boat to the sea.
                let shape_ok = if boat {
                    self.board.is_sea(to)
                } else {
                    self.board.slot_side(to) == Some(side)
                };
                let ok = shape_ok && self.vessel_may_enter(team, to, &occupied);
                debug_assert_eq!(ok, shape_ok && self.check_vessel_move(team, v, to).is_ok());
                if ok {
                    let action = if self.vessels[v].boat {
                        Action::Boat { from, to }
                    } else {
                        Action::Ship { to }
                    };
                    visit(action)?;
                }
            }
        }
        if !(dead_pirate && in_resfort) {
            return ControlFlow::Continue(());
        }
        for at in self.resurrection_cells(team) {
            visit(Action::Resurrect { at })?;
        }
        ControlFlow::Continue(())
    }

    /// The moves of one unit to the target `to` (one for each cargo it may carry there).
    /// Inlined into each of its three callers: it runs for every target of every listing, and
    /// a call per target cost more than the copies.
    #[inline(always)]
    fn visit_unit_moves(
        &self,
        mover: &Mover,
        to: Cell,
        occupied: &Occupied,
        visit: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let u = mover.u;
        let selections = mover.selections;
        // What the cargo cannot change is checked once per target (this runs for every unit on
        // every ply); each selection only asks what depends on it.
        let several = selections.len() > 1;
        let quick = self.quick_accepts(u, mover.here, to, occupied, several);
        let accepts = match quick {
            Some(accepts) => accepts,
            None => match self.check_step(u, to, Items::NONE, occupied) {
                Ok(()) => Accepts::Empty {
                    cargo_too: several && self.takes_cargo(u, to, occupied),
                },
                // A step into the plain sea is a launch, open only to a boat (R-BOAT-2).
                Err(ErrorKind::Unreachable) if self.board.is_sea(to) => Accepts::Launch,
                Err(_) => return ControlFlow::Continue(()),
            },
        };
        let kind = self.units[u].kind;
        for &cargo in selections {
            let ok = match accepts {
                Accepts::Empty { cargo_too } => cargo.is_empty() || cargo_too,
                Accepts::Launch => {
                    cargo.count(Item::Boat) > 0 && self.check_step(u, to, cargo, occupied).is_ok()
                }
            };
            if ok {
                visit(Action::Move {
                    unit: kind,
                    to,
                    cargo,
                })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The rest of [`Game::check_vessel_move`] for a crewed vessel of `team` whose shape allows
    /// `to`: no vessel there, no enemy missionary swimming there (R-VESSEL-3). The map of who
    /// stands where spares the look at every unit for the cells without enemies.
    fn vessel_may_enter(&self, team: Team, to: Cell, occupied: &Occupied) -> bool {
        if occupied.vessel_at(to) {
            return false;
        }
        !occupied.enemy_at(to)
            || !self
                .swimmers_at(to)
                .any(|s| self.units[s].is_missionary() && self.enemies(self.units[s].team, team))
    }

    /// What `to` accepts from the unit `u` on `here` where the position alone decides, as
    /// `check_step` and `takes_cargo` would (most targets); `None` leaves it to them. A land cell
    /// other than `here` without enemies takes anyone reaching it (R-STEP-2 has nothing against
    /// it: no vessel, no enemy, no tunnel), and cargo where R-CARGO-5 allows. Plain sea is a
    /// launch from land and an open swim for a swimmer without enemies there.
    #[inline(always)]
    fn quick_accepts(
        &self,
        u: UnitId,
        here: Option<Cell>,
        to: Cell,
        occupied: &Occupied,
        several: bool,
    ) -> Option<Accepts> {
        let no_enemies = !occupied.enemy_at(to);
        match self.tiles[self.board.index(to)] {
            Some(tile) => (here != Some(to) && no_enemies).then(|| Accepts::Empty {
                cargo_too: several && Self::tile_takes_cargo(tile),
            }),
            None if occupied.vessel_at(to) => None,
            None => {
                let unit = &self.units[u];
                match unit.place {
                    Place::Land { .. } if unit.seat.is_none() => Some(Accepts::Launch),
                    Place::Swim(_) if no_enemies => Some(Accepts::Empty { cargo_too: several }),
                    _ => None,
                }
            }
        }
    }

    /// The teams that are enemies of `team`, as bits of `team.index()`: every team of the game
    /// but its side's (R-GEN-1). Asked at every entry of a chain: a few instructions, no loop.
    #[inline]
    pub(super) fn enemy_teams(&self, team: Team) -> u8 {
        let all = (1u8 << self.settings.players.team_count()) - 1;
        // In 2 vs 2 the teams of one parity (1 and 3, 2 and 4) are one side.
        let side = if self.settings.players == Players::TwoVsTwo {
            0b0101 << (team.index() & 1)
        } else {
            1 << team.index()
        };
        let out = all & !side;
        debug_assert_eq!(
            out,
            self.teams()
                .filter(|t| self.enemies(*t, team))
                .fold(0, |m, t| m | 1 << t.index())
        );
        out
    }

    /// Whether cargo may come onto the land cell of `tile` where nobody stands (R-CARGO-5):
    /// not into fog, a fortress or the jungle. The same answer as `takes_cargo` there.
    fn tile_takes_cargo(tile: Tile) -> bool {
        tile.open
            && !matches!(
                tile.effective(),
                TileKind::Fortress | TileKind::ResFort | TileKind::Jungle
            )
    }

    /// Given that the unit may step to `to` empty-handed, may it carry cargo taken at its
    /// position there? (R-STEP-2 check 9; the selections offered are within its capacity and
    /// lie where it stands, check 5.) The same answer as `check_step` with cargo.
    fn takes_cargo(&self, u: UnitId, to: Cell, occupied: &Occupied) -> bool {
        let unit = &self.units[u];
        if self.board.is_sea(to) {
            // Aboard a vessel (the only sea target open to an empty hand from land or a
            // vessel; a swimmer carries nothing).
            return true;
        }
        if let Place::Land { cell, .. } = unit.place
            && cell == to
            && unit.seat.is_none()
            && self.maze_steps(to) == 0
        {
            return true; // into the tunnel
        }
        let step = match unit.place {
            Place::Land { cell, step } if cell == to && unit.seat.is_none() => step + 1,
            _ => entry_step(self, to, unit.is_friday()),
        };
        let place = Place::Land { cell: to, step };
        !self.cargo_barred_where(unit.team, place, occupied.enemy_at(to))
    }

    /// Every legal action now with its fatal flag (R-TURN-3, R-TURN-4, R-CHAIN-9).
    pub fn legal_actions(&self) -> Vec<LegalAction> {
        let mut out = Vec::with_capacity(32);
        // Who stands where, once for every action's flag.
        let occupied = Occupied::of(self, 0);
        self.visit_legal(&mut |action| {
            // Most actions are plain (no unit move, or an ordinary unit's step onto a stop
            // tile, fog or the sea): judged here, without the call.
            let fatal = match self.fatal_plainly(&action) {
                Some(fatal) => fatal,
                None => self.is_fatal_among(&action, &occupied),
            };
            out.push(LegalAction { action, fatal })
        });
        out
    }

    /// The legal actions in the same order, without deciding which are fatal (that can take a
    /// simulation per action): for callers that only pick or count, such as the bots.
    pub fn legal_actions_unflagged(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(32);
        self.visit_legal(&mut |action| out.push(action));
        out
    }

    fn visit_legal(&self, f: &mut impl FnMut(Action)) {
        if self.outcome.is_some() {
            return;
        }
        if self.pending.is_some() {
            let _ = self.visit_choice_options(&mut |a| {
                f(a);
                ControlFlow::Continue(())
            });
            return;
        }
        for at in self.rum_targets(self.turn) {
            f(Action::Rum { at });
        }
        self.visit_main_actions(self.turn, &mut |action| {
            f(action);
            ControlFlow::Continue(())
        });
    }
}
