//! A quick preference among legal actions, for choosing which actions are worth judging in
//! full when there are too many: carry gold home, pick gold up, strike enemies standing on gold,
//! open the fog, bring the ship to the carriers; never walk into a known death. Cheap (two
//! distance maps a ply, a glance per action) where judging every outcome would be slow.

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Cell, Game, Items, Place, Team, TileKind, UnitRef};

use super::eval::is_caught;
use super::reach::{self, Map, open_kind};

/// The index below `len` with the highest score; ties go to the first met from a starting
/// point the generator picks, so equal actions are not always decided the same way.
pub(super) fn best(len: usize, rng: &mut SplitMix64, mut score: impl FnMut(usize) -> f32) -> usize {
    let start = rng.pick(len);
    let mut top = start;
    let mut top_score = f32::MIN;
    for k in 0..len {
        let i = (start + k) % len;
        let s = score(i);
        if s > top_score {
            top = i;
            top_score = s;
        }
    }
    top
}

/// What the mover's side needs to know to score actions at a glance.
pub(super) struct Glance {
    team: Team,
    home: Map,
    gold_per_fog: f32,
}

impl Glance {
    pub fn of(game: &Game) -> Glance {
        let team = game.controller();
        let fog = game
            .board()
            .land_cells()
            .filter(|c| game.tile(*c).is_some_and(|t| !t.open))
            .count()
            .max(1);
        // The fog's gold as the accounts tell it (in a determinisation: what was drawn, on
        // average over the fog; nothing here looks at a single fog tile).
        let hidden = game.gold_in_play().saturating_sub(
            game.board()
                .land_cells()
                .map(|c| game.items_at(c).gold_points())
                .sum(),
        );
        Glance {
            team,
            home: reach::home(game, team),
            gold_per_fog: hidden as f32 / fog as f32,
        }
    }

    /// The `n` of `actions` this glance likes best, best first (equals keep their order).
    pub fn shortlist(&self, game: &Game, actions: &[Action], n: usize) -> Vec<Action> {
        let mut glanced: Vec<(f32, Action)> =
            actions.iter().map(|a| (self.score(game, a), *a)).collect();
        glanced.sort_by(|a, b| b.0.total_cmp(&a.0));
        glanced.into_iter().take(n).map(|(_, a)| a).collect()
    }

    /// How much the mover likes this action, roughly in points.
    pub fn score(&self, game: &Game, action: &Action) -> f32 {
        match *action {
            Action::Move { unit, to, cargo } => {
                let reference = UnitRef {
                    team: game.turn(),
                    kind: unit,
                };
                let from = game.find_unit(reference).and_then(|i| game.unit_cell(i));
                self.step(game, from, to, cargo)
            }
            Action::Choose { cell, cargo } => {
                let from = game
                    .pending()
                    .and_then(|p| p.unit())
                    .and_then(|u| game.unit_cell(u));
                self.step(game, from, cell, cargo)
            }
            Action::Ship { to } => self.sail(game, to),
            Action::Resurrect { .. } => 3.0,
            Action::Boat { .. } | Action::Rum { .. } | Action::Pass => 0.0,
        }
    }

    fn step(&self, game: &Game, from: Option<Cell>, to: Cell, cargo: Items) -> f32 {
        let board = game.board();
        if let Some(v) = game.vessel_at(to) {
            let ours = game.allied(game.vessel(v).owner, self.team);
            return match (ours, cargo.gold_points()) {
                (true, 0) => -0.5,
                (true, gold) => 5.0 * gold as f32,
                (false, _) => -20.0,
            };
        }
        if board.is_sea(to) {
            // Swimming is slow and aimless, unless it strikes an enemy swimmer (R-FIGHT-5).
            return if self.enemies_on(game, to) {
                self.strike(game, to, 0.0)
            } else {
                -3.0
            };
        }
        let kind = open_kind(game, to);
        if kind == Some(TileKind::Cannibal) {
            return -20.0;
        }
        let from_home = from.map_or(0, |c| self.home.get(c)) as f32;
        if cargo.has_gold() {
            let closer = from_home - self.home.get(to) as f32;
            return cargo.gold_points() as f32 * (0.5 + 0.3 * closer);
        }
        let mut score = 0.0;
        let gold_there = game.items_at(to).gold_points() as f32;
        if gold_there > 0.0 {
            score += 1.0 + 0.1 * gold_there;
        }
        if self.enemies_on(game, to) {
            score += self.strike(game, to, gold_there);
        }
        match kind {
            None => score += 0.4 + 2.0 * self.gold_per_fog,
            Some(k) if !k.is_stop() => score -= 0.2,
            Some(TileKind::Trap | TileKind::Barrel) => score -= 0.5,
            _ => {}
        }
        score - 0.02 * self.home.get(to) as f32
    }

    /// A ship move is worth it when it brings the ship nearer to gold its side stands on.
    fn sail(&self, game: &Game, to: Cell) -> f32 {
        let Some(ship) = game.main_ship(game.turn()) else {
            return 0.0;
        };
        let here = game.vessel(ship).cell;
        let mut gain = -0.3;
        for unit in game.units() {
            let Place::Land { cell, .. } = unit.place else {
                continue;
            };
            if !game.allied(unit.team, self.team) || game.items_at(cell).gold_points() == 0 {
                continue;
            }
            let before = king(here, cell);
            let after = king(to, cell);
            if after < before {
                gain += 0.6;
            }
        }
        gain
    }

    /// Striking the enemies on `cell`, where `gold` lies: worth the gold they would carry
    /// off, and the game itself when one of them is the last free unit of its side in a duel,
    /// which is then stranded (R-END-4). Cut from a shortlist, such a strike would leave the
    /// search blind to the one reply that loses it the game.
    fn strike(&self, game: &Game, cell: Cell, gold: f32) -> f32 {
        let last = game.teams().count() == 2
            && game.units().iter().any(|u| {
                on(u.place, cell)
                    && game.enemies(u.team, self.team)
                    && !game.units().iter().any(|o| {
                        game.allied(o.team, u.team)
                            && o.alive()
                            && !is_caught(o)
                            && !on(o.place, cell)
                    })
            });
        0.8 + gold + if last { LAST_UNIT } else { 0.0 }
    }

    fn enemies_on(&self, game: &Game, cell: Cell) -> bool {
        game.units()
            .iter()
            .any(|u| game.enemies(u.team, self.team) && on(u.place, cell))
    }
}

fn king(a: Cell, b: Cell) -> i32 {
    (a.col as i32 - b.col as i32)
        .abs()
        .max((a.row as i32 - b.row as i32).abs())
}
/// A strike that leaves the enemy side nothing free to move: the duel's end, in points.
const LAST_UNIT: f32 = 20.0;

/// Does a unit at `place` stand (or swim) on `cell`?
fn on(place: Place, cell: Cell) -> bool {
    match place {
        Place::Land { cell: c, .. } | Place::Swim(c) => c == cell,
        _ => false,
    }
}
