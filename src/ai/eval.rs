//! Judging a position: what each side has, what its units are about to bring home, and what
//! it risks.
//!
//! Values are in points of gold. A side's value is its score, plus each unit's *job* — a unit
//! standing on gold carries it home, any other goes for the best piece of gold (or fog tile)
//! it can fetch and carry home, each discounted by the moves that takes — plus a little for the
//! gold nobody is fetching yet and for every living unit. Jobs make every move towards the
//! goal worth something, which the greedy level needs; the discount makes near gold better
//! than far. Only open tiles are read: a fog tile counts for the gold an unseen tile holds on
//! average.

use std::sync::LazyLock;

use crate::engine::{Cell, Game, Item, Place, PublicView, Team, TileKind, Unit, UnitKind};

use super::reach::{self, FAR, Map, open_kind};

/// A point of gold one move further away is worth this much less.
const DISCOUNT: f32 = 0.9;
/// A living fighting unit, in points: losing one costs more than the gold it carried.
const UNIT: f32 = 1.5;
/// A caught fighting unit (trapped, or stuck in the tunnel), in points.
const CAUGHT: f32 = 0.75;
/// A side none of whose units can move: about to lose.
const STRANDED: f32 = 8.0;
/// Gold in the fog is less sure than gold in sight.
const FOG_WEIGHT: f32 = 0.6;
/// Gold no unit is going for yet counts this much of its discounted value.
const SPARE: f32 = 0.3;
/// A carrier next to an enemy that moves first keeps this much of its job.
const THREATENED: f32 = 0.4;
/// Value differences of this many points make a reward of about 0.73 (for the search).
const SCALE: f32 = 2.0;
/// The gold in play (classic pack, at the start) at which [`race_rewards`] weighs a lead as
/// [`rewards`] does.
const START_GOLD: f32 = 37.0;
/// The long scale of [`race_rewards`], in points: a lead of this many makes about 0.73.
const LONG_SCALE: f32 = 6.0;
/// The share of [`race_rewards`] weighed on the long scale.
const LONG_WEIGHT: f32 = 0.08;
/// Rounds before the stall guard would end the game (R-END-6) from which [`race_rewards`]
/// counts the gold left for less: a standoff this long is one nobody is breaking.
const STALL_HORIZON: f32 = 15.0;

/// The weights a side's value is made of ([`side_value`]): every level judges by
/// [`STANDARD`] (the constants above). Other weights are for tuning runs (the ignored test
/// `tune_weights` in `src/ai/tests.rs`, which plays `easy` judging by them against `easy`
/// judging by these): none tried so far did better (`docs/bots.md`).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Weights {
    /// A point of gold one move further away is worth this much less ([`DISCOUNT`]).
    pub discount: f32,
    /// A living fighting unit ([`UNIT`]).
    pub unit: f32,
    /// A caught fighting unit ([`CAUGHT`]).
    pub caught: f32,
    /// A side none of whose units can move ([`STRANDED`]).
    pub stranded: f32,
    /// Gold in the fog against gold in sight ([`FOG_WEIGHT`]).
    pub fog_weight: f32,
    /// Gold no unit is going for yet ([`SPARE`]).
    pub spare: f32,
    /// A carrier next to an enemy that moves first ([`THREATENED`]).
    pub threatened: f32,
    /// `discount` to the power of each number of moves up to [`FAR`] (nothing at `FAR`).
    discounts: [f32; FAR as usize + 1],
}

/// `easy`'s and `normal`'s weights: the constants above.
pub(super) static STANDARD: LazyLock<Weights> = LazyLock::new(|| {
    Weights::new(
        DISCOUNT, UNIT, CAUGHT, STRANDED, FOG_WEIGHT, SPARE, THREATENED,
    )
});

impl Weights {
    pub fn new(
        discount: f32,
        unit: f32,
        caught: f32,
        stranded: f32,
        fog_weight: f32,
        spare: f32,
        threatened: f32,
    ) -> Weights {
        let mut discounts = [0.0; FAR as usize + 1];
        for (d, slot) in discounts.iter_mut().enumerate().take(FAR as usize) {
            *slot = discount.powi(d as i32);
        }
        Weights {
            discount,
            unit,
            caught,
            stranded,
            fog_weight,
            spare,
            threatened,
            discounts,
        }
    }

    /// `discount` to the power `moves`, from the table (this runs for every cell of every
    /// leaf).
    fn discount(&self, moves: u16) -> f32 {
        self.discounts[moves.min(FAR) as usize]
    }
}

/// What the bot knows about the fog (how much gold an unseen tile holds on average), and
/// the weights it judges positions by.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prior {
    gold_per_fog_tile: f32,
    weights: &'static Weights,
}

impl Prior {
    /// The prior of `view`, judged by [`STANDARD`].
    #[cfg(test)]
    pub fn of(view: &PublicView) -> Prior {
        Prior::weighed(view, &STANDARD)
    }

    /// The prior of `view`, judged by `weights`.
    pub fn weighed(view: &PublicView, weights: &'static Weights) -> Prior {
        let gold: u32 = view
            .unseen_counts()
            .iter()
            .map(|(kind, n)| kind.hidden_gold() * *n as u32)
            .sum();
        let tiles = view.unseen_count().max(1);
        Prior {
            gold_per_fog_tile: gold as f32 / tiles as f32,
            weights,
        }
    }
}

/// `DISCOUNT` to the power `moves` ([`STANDARD`]).
#[cfg(test)]
fn discount(moves: u16) -> f32 {
    STANDARD.discount(moves)
}

/// Each team's value (index: team − 1); allies share their side's value.
pub(super) fn values(game: &Game, prior: &Prior) -> [f32; 4] {
    let mut out = [0.0; 4];
    let mut done = [false; 4];
    // Walking costs the same for every side: worked out once for all their units.
    let walks = reach::Walks::of(game);
    for team in game.teams() {
        let t = team.index();
        if done[t] {
            continue;
        }
        let value = side_value(game, prior, &walks, team);
        for ally in game.teams().filter(|a| game.allied(*a, team)) {
            out[ally.index()] = value;
            done[ally.index()] = true;
        }
    }
    out
}

/// How good the position is for each team, from 0 (lost) to 1 (won).
pub(super) fn rewards(game: &Game, prior: &Prior) -> [f32; 4] {
    rewards_at(game, prior, SCALE)
}

/// [`rewards`], with each lead weighed against the gold still to play for: a lead of two
/// points with thirty-seven to go is a small edge, with four to go all but the game, as the
/// spread of what the rest of the game can still change grows with the square root of the
/// gold left in it. A search ending its playouts on this plays safe when ahead late and
/// takes chances when behind. The greedy judge keeps [`rewards`]: it compares positions one
/// move apart, whose gold left hardly differs.
///
/// The stall guard (R-END-6) counts too: when nobody has opened a tile or moved gold for
/// long, the game is about to end by score, and the gold left counts only for as long as the
/// guard still gives. So a side behind in a standoff looks for any way to break it, and a
/// side ahead is content to let it run out.
///
/// The guard ends the game by score, not by what the sides' units are about to bring home:
/// so as it nears, each side's value is counted less by its units and their jobs and more by
/// its score, all score once the guard is due ([`race_values`]). A side ahead by its units
/// but behind by its score must break the standoff, not sit it out (an arena game was lost
/// 13–14 so, by a side with six units to the other's three, which moved one of them back
/// and forth for thirty rounds); a side ahead by its score may let the guard run out.
///
/// Weighed that way alone, a lead far beyond what is left to play for makes every position
/// the same (all but won, or all but lost), and a search on it plays anything, easy's
/// favourite as a rule: a side nine points behind near the guard has nothing to choose
/// between fetching gold and standing still. So a little of each reward is the lead on the
/// long scale [`LONG_SCALE`], which still tells a better position from a worse one.
pub(super) fn race_rewards(game: &Game, prior: &Prior) -> [f32; 4] {
    if let Some(decided) = decided(game) {
        return decided;
    }
    let time = time_to_play_for(game);
    let left = gold_to_play_for(game, prior) * time;
    let scale = SCALE * ((left + 1.0) / (START_GOLD + 1.0)).sqrt();
    let values = race_values(game, prior, time);
    let race = leads_as_rewards(game, &values, scale);
    let long = leads_as_rewards(game, &values, LONG_SCALE);
    std::array::from_fn(|t| (1.0 - LONG_WEIGHT) * race[t] + LONG_WEIGHT * long[t])
}

/// Each team's value counted as far as the game still has `time` for it (see
/// [`time_to_play_for`]): its score, and that share of what its units add to it.
fn race_values(game: &Game, prior: &Prior, time: f32) -> [f32; 4] {
    let values = values(game, prior);
    let mut out = [0.0; 4];
    for team in game.teams() {
        let score = game.side_score(team) as f32;
        out[team.index()] = score + time * (values[team.index()] - score);
    }
    out
}

/// How much of the gold left can still be played for before the stall guard ends the game:
/// all of it until the last [`STALL_HORIZON`] rounds the guard allows, then less and less.
fn time_to_play_for(game: &Game) -> f32 {
    let teams = game.teams_in_play().count().max(1) as f32;
    game.turns_before_stall()
        .map_or(1.0, |turns| (turns as f32 / teams / STALL_HORIZON).min(1.0))
}

/// The gold still in play as a player sees it: what lies on the board (or in a hand), and
/// what the fog holds on average.
fn gold_to_play_for(game: &Game, prior: &Prior) -> f32 {
    let board = game.board();
    let lying: u32 = board
        .land_cells()
        .map(|c| game.items_at(c).gold_points())
        .sum();
    let in_hand = game.pending().map_or(0, |p| p.cargo().gold_points());
    let fog = board
        .land_cells()
        .filter(|c| game.tile(*c).is_some_and(|t| !t.open))
        .count();
    (lying + in_hand) as f32 + fog as f32 * prior.gold_per_fog_tile
}

/// [`rewards`] with a lead of `scale` points making a reward of about 0.73.
fn rewards_at(game: &Game, prior: &Prior, scale: f32) -> [f32; 4] {
    match decided(game) {
        Some(decided) => decided,
        None => leads_as_rewards(game, &values(game, prior), scale),
    }
}

/// The rewards of a game that is over, or of a duel one side has lost already
/// ([`losing_duel`]); `None` while the game is still open.
fn decided(game: &Game) -> Option<[f32; 4]> {
    let mut out = [0.0; 4];
    if let Some(outcome) = game.outcome() {
        let share = if outcome.draw { 0.5 } else { 1.0 };
        for team in &outcome.winners {
            out[team.index()] = share;
        }
        return Some(out);
    }
    let lost = losing_duel(game)?;
    for team in game.teams() {
        out[team.index()] = if team == lost { 0.0 } else { 1.0 };
    }
    Some(out)
}

/// Each team's lead in `values` over its best enemy still in play, a lead of `scale` points
/// making a reward of about 0.73.
fn leads_as_rewards(game: &Game, values: &[f32; 4], scale: f32) -> [f32; 4] {
    let mut out = [0.0; 4];
    for team in game.teams() {
        let mine = values[team.index()];
        let best_enemy = game
            .teams()
            .filter(|e| game.enemies(*e, team) && !game.is_eliminated(*e))
            .map(|e| values[e.index()])
            .fold(f32::MIN, f32::max);
        let lead = if best_enemy == f32::MIN {
            0.0
        } else {
            mine - best_enemy
        };
        out[team.index()] = 1.0 / (1.0 + (-lead / scale).exp());
    }
    out
}

/// Gold lying on the board: cell, pieces, points a piece (coins and bullions apart).
struct Pile {
    cell: Cell,
    pieces: u32,
    points: u32,
}

fn piles(game: &Game) -> Vec<Pile> {
    let mut out = Vec::new();
    for cell in game.board().land_cells() {
        let items = game.items_at(cell);
        let coins = items.count(Item::Coin) as u32 + in_hand(game, cell, Item::Coin);
        let bars = items.count(Item::Bar) as u32 + in_hand(game, cell, Item::Bar);
        for (pieces, points) in [(coins, 1), (bars, 3)] {
            if pieces > 0 {
                out.push(Pile {
                    cell,
                    pieces,
                    points,
                });
            }
        }
    }
    out
}

/// Pieces of `item` in the hand of a unit answering a choice on `cell`.
fn in_hand(game: &Game, cell: Cell, item: Item) -> u32 {
    match game.pending() {
        Some(p) if p.unit().and_then(|u| game.unit_cell(u)) == Some(cell) => {
            p.cargo().count(item) as u32
        }
        _ => 0,
    }
}

fn side_value(game: &Game, prior: &Prior, walks: &reach::Walks, team: Team) -> f32 {
    let w = prior.weights;
    let home = reach::home(game, team);
    let mut piles = piles(game);
    let mut value = game.side_score(team) as f32;
    let side: Vec<&Unit> = game
        .units()
        .iter()
        .filter(|u| game.allied(u.team, team) && u.alive())
        .collect();
    // A caught unit (trapped, stuck in the tunnel) fights again only once freed; a side left
    // with nothing that can move loses a duel on its next turn (R-END-4) and is out of the
    // game in any case.
    let fighters = side.iter().filter(|u| u.fights());
    let caught = fighters.clone().filter(|u| is_caught(u)).count();
    value += w.unit * (fighters.count() - caught) as f32 + w.caught * caught as f32;
    if stranded(game, team) {
        value -= w.stranded;
    }
    let fog: Vec<Cell> = game
        .board()
        .land_cells()
        .filter(|c| game.tile(*c).is_some_and(|t| !t.open))
        .collect();
    let fog_gold = w.fog_weight * prior.gold_per_fog_tile;
    // Carriers first: a unit standing where it can take gold takes one piece of it.
    let mut free = Vec::new();
    for unit in side.iter().filter(|u| u.carries()) {
        let here = match unit.place {
            Place::Land { cell, .. } if game.home_of(unit.place).is_some() => Some(cell),
            _ => None,
        };
        match here.and_then(|c| piles.iter().position(|p| p.cell == c && p.pieces > 0)) {
            Some(i) => {
                let pile = &mut piles[i];
                pile.pieces -= 1;
                let risk = if threatened(game, pile.cell, team) {
                    w.threatened
                } else {
                    1.0
                };
                value += risk * pile.points as f32 * w.discount(home.get(pile.cell));
            }
            None => free.push(*unit),
        }
    }
    // Gold nobody goes for yet is fetched on a later trip: by a unit with a job once it has
    // brought its piece home, so from its ship, or by a unit exploring, from where it is.
    // Counting the rest of a pile from the unit beside it, or from the carrier standing on
    // it, would make every step home with one piece look like a step away from the others,
    // and a carrier with more gold around it would stand there for good.
    let mut nearest = vec![FAR; game.board().cell_count()];
    if let Some(ship) = game.main_ship(team) {
        let aboard = Unit::new(team, UnitKind::Pirate(1), Place::Aboard(ship));
        remember_nearest(&mut nearest, game, &walks.walk(game, &aboard));
    }
    // Then each free unit goes for the best piece left, or the best fog tile. Gold an enemy
    // stands guard over is worth to a unit fetching it what it is worth to a carrier standing
    // on it: were it worth more from a step away, a unit would hover beside the gold and
    // never take it.
    let guard: Vec<f32> = piles
        .iter()
        .map(|p| {
            if guarded(game, p.cell, team) {
                w.threatened
            } else {
                1.0
            }
        })
        .collect();
    for unit in free {
        let walk = walks.walk(game, unit);
        let mut best = 0.0f32;
        let mut target = None;
        for (i, pile) in piles.iter().enumerate().filter(|(_, p)| p.pieces > 0) {
            let moves = walk.get(pile.cell).saturating_add(home.get(pile.cell));
            let v = guard[i] * pile.points as f32 * w.discount(moves);
            if v > best {
                best = v;
                target = Some(i);
            }
        }
        for &cell in &fog {
            let v = fog_gold * w.discount(walk.get(cell).saturating_add(home.get(cell)));
            if v > best {
                best = v;
                target = None;
            }
        }
        match target {
            Some(i) => piles[i].pieces -= 1,
            None => remember_nearest(&mut nearest, game, &walk),
        }
        value += best;
    }
    // Gold nobody goes for yet still counts a little: the side can reach it later.
    for pile in &piles {
        let i = game.board().index(pile.cell);
        let moves = nearest[i].saturating_add(home.get(pile.cell));
        value += w.spare * (pile.pieces * pile.points) as f32 * w.discount(moves);
    }
    value
}

/// Has `team` lost: the game is over without it among the winners, or it has lost a duel
/// already ([`losing_duel`]).
pub(super) fn lost(game: &Game, team: Team) -> bool {
    match game.outcome() {
        Some(outcome) => !outcome.winners.contains(&team),
        None => losing_duel(game) == Some(team),
    }
}

/// The side of a two-player game that has lost already, though the rules only say so at the
/// start of its next turn: stranded, with no rum to serve (R-END-4). The other side all but
/// never frees it in between: only a side's own units free its trapped ones, and an enemy
/// entering the cave leaves the stuck unit stuck (R-CAVE-4); only a cave the enemy opens by
/// lighthouse or cannonball would release it, which this reading counts as lost anyway.
fn losing_duel(game: &Game) -> Option<Team> {
    let mut teams = game.teams();
    let (Some(a), Some(b), None) = (teams.next(), teams.next(), teams.next()) else {
        return None;
    };
    [a, b]
        .into_iter()
        .find(|t| game.rum(*t) == 0 && stranded(game, *t))
}

/// None of the side's units can move again by itself: each living one is caught (trapped,
/// stuck in the tunnel), or none is left.
pub(super) fn stranded(game: &Game, team: Team) -> bool {
    game.units()
        .iter()
        .filter(|u| game.allied(u.team, team) && u.alive())
        .all(is_caught)
}

/// Trapped, or stuck in the tunnel: the unit moves again only once freed.
pub(super) fn is_caught(unit: &Unit) -> bool {
    unit.trapped || unit.stuck()
}

/// Keeps in `nearest` the fewest moves any unit so far needs to each cell.
fn remember_nearest(nearest: &mut [u16], game: &Game, walk: &Map) {
    let board = game.board();
    for cell in board.land_cells() {
        let i = board.index(cell);
        nearest[i] = nearest[i].min(walk.get(cell));
    }
}

/// Can an enemy of `team` that moves before `team` does attack the units of `team` standing
/// on `cell` (R-FIGHT)? Only the side to move can strike first.
fn threatened(game: &Game, cell: Cell, team: Team) -> bool {
    let stands_here = game.units().iter().any(|u| {
        game.allied(u.team, team) && matches!(u.place, Place::Land { cell: c, .. } if c == cell)
    });
    stands_here && guarded(game, cell, team)
}

/// Can an enemy of `team` that moves next strike `cell` (not a fortress or jungle, where no
/// fight happens)? Gold there is worth only [`THREATENED`] of itself to whoever takes it.
fn guarded(game: &Game, cell: Cell, team: Team) -> bool {
    let mover = game.controller();
    if game.allied(mover, team)
        || matches!(
            open_kind(game, cell),
            Some(TileKind::Fortress | TileKind::ResFort | TileKind::Jungle)
        )
    {
        return false;
    }
    let board = game.board();
    game.units().iter().any(|u| {
        u.team == mover
            && u.able()
            && u.fights()
            && match u.place {
                Place::Land { cell: c, .. } => board.adjacent(c, cell),
                Place::Aboard(v) => {
                    let vessel = game.vessel(v);
                    if vessel.boat {
                        board.adjacent(vessel.cell, cell)
                    } else {
                        board.front_cell(vessel.cell) == Some(cell)
                    }
                }
                _ => false,
            }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Players, Settings};

    fn duel() -> Game {
        let settings = Settings {
            board_size: 13,
            players: Players::Two,
            tile_pack: Pack::Classic,
            ..Settings::default()
        };
        Game::new(settings, 3).unwrap()
    }

    #[test]
    fn the_start_is_even() {
        let game = duel();
        let prior = Prior::of(&game.public_view());
        let v = values(&game, &prior);
        assert!((v[0] - v[1]).abs() < 1e-3, "{v:?}");
        let r = rewards(&game, &prior);
        assert!((r[0] - 0.5).abs() < 1e-3 && (r[1] - 0.5).abs() < 1e-3);
    }

    #[test]
    fn the_prior_is_the_gold_per_unseen_tile() {
        let game = duel();
        let prior = Prior::of(&game.public_view());
        assert!((prior.gold_per_fog_tile - 37.0 / 117.0).abs() < 1e-6);
    }

    fn position(text: &str) -> Game {
        crate::scenario::position_after_plays(text)
            .unwrap_or_else(|e| panic!("{e}"))
            .0
    }

    /// Team 1 has one pirate left (2 and 3 are dead): caught in a trap, the side cannot move
    /// and is about to lose (R-END-4), which costs far more than the pirate's own worth.
    #[test]
    fn a_side_that_cannot_move_is_about_to_lose() {
        let trapped = position("tile e5 trap\nunit 1.1 e5 trapped\nunit 2.1 h9\nturn 2\n");
        let loose = position("tile e5 empty\nunit 1.1 e5\nunit 2.1 h9\nturn 2\n");
        let prior = Prior::of(&loose.public_view());
        let team = Team::of(1);
        let lost = values(&loose, &prior)[team.index()] - values(&trapped, &prior)[team.index()];
        assert!(lost >= STRANDED + UNIT - CAUGHT, "{lost}");
    }

    /// In a duel, a side whose every living unit is caught has lost, though the rules say so
    /// only at the start of its turn (R-END-4); with rum to serve it may yet get free, and in
    /// a game of more sides it is only skipped.
    #[test]
    fn a_stranded_side_has_lost_a_duel() {
        let trapped = position("tile e5 trap\nunit 1.1 e5 trapped\nunit 2.1 h9\nturn 2\n");
        let prior = Prior::of(&trapped.public_view());
        assert_eq!(rewards(&trapped, &prior)[..2], [0.0, 1.0]);
        assert!(lost(&trapped, Team::of(1)) && !lost(&trapped, Team::of(2)));
        let with_rum =
            position("tile e5 trap\nunit 1.1 e5 trapped\nunit 2.1 h9\nrum 1 = 1\nturn 2\n");
        assert!(rewards(&with_rum, &prior)[0] > 0.0);
        let three = position(
            "players 3\ntile e5 trap\nunit 1.1 e5 trapped\nunit 2.1 h9\nunit 3.1 g11\nturn 2\n",
        );
        assert!(rewards(&three, &prior)[0] > 0.0);
    }

    /// Team 1's pirate 1 stands beside two piles of coins, pirate 2 far off. Stepping onto
    /// one pile to take a coin home must be worth more than standing still: the carrier
    /// comes back for the rest, so the gold left beside it is no further away than before.
    #[test]
    fn picking_up_gold_beside_more_gold_is_worth_it() {
        let at = |cell: &str| {
            position(&format!(
                "tile f5 empty\ntile g5 empty\ntile f6 empty\ntile j10 fog chest5\n\
                 item f5 coin 4\nitem f6 coin 4\nunit 1.1 {cell}\nunit 1.2 b12\n\
                 unit 2.1 l12\nturn 2\n"
            ))
        };
        let standing = at("g5");
        let picked = at("f5");
        let prior = Prior::of(&standing.public_view());
        let team = Team::of(1);
        let before = values(&standing, &prior)[team.index()];
        let after = values(&picked, &prior)[team.index()];
        assert!(after > before, "{after} after picking up, {before} before");
    }

    /// A pirate standing on eight coins, three moves from its ship on g1, takes one a step
    /// home: worth more than standing there, though the step takes it away from the seven
    /// left. It fetches those on later trips from the ship, wherever it stands now.
    #[test]
    fn a_carrier_walks_home_though_more_gold_lies_beside_it() {
        let at = |cell: &str, coins: &str| {
            position(&format!(
                "tile g2 empty\ntile g3 empty\ntile g4 empty\ntile g5 empty\n{coins}\
                 unit 1.1 {cell}\nunit 2.1 l12\nturn 2\n"
            ))
        };
        let standing = at("g5", "item g5 coin 8\n");
        let stepped = at("g4", "item g5 coin 7\nitem g4 coin\n");
        let prior = Prior::of(&standing.public_view());
        let me = Team::of(1).index();
        let (before, after) = (values(&standing, &prior)[me], values(&stepped, &prior)[me]);
        assert!(after > before, "{after} a step home, {before} standing");
    }

    /// Two coins on f5, an enemy pirate beside them on e5 to move next. Standing on the
    /// coins is no worse than standing a step away from them on g5 (out of the enemy's
    /// reach): were it worse, a pirate would stand beside the gold for good.
    #[test]
    fn gold_an_enemy_guards_is_no_better_from_a_step_away() {
        let at = |cell: &str| {
            position(&format!(
                "tile e5 empty\ntile f5 empty\ntile g5 empty\nitem f5 coin 2\n\
                 unit 1.1 {cell}\nunit 2.1 e5\nturn 2\n"
            ))
        };
        let (beside, on) = (at("g5"), at("f5"));
        let prior = Prior::of(&beside.public_view());
        let me = Team::of(1).index();
        let (beside, on) = (values(&beside, &prior)[me], values(&on, &prior)[me]);
        assert!(on >= beside, "{on} on the coins, {beside} beside them");
    }

    /// The same lead of two points, with the same units as near the same gold, counts the
    /// same for [`rewards`] whatever the gold left; for [`race_rewards`] it is a small edge
    /// with thirty coins still lying between the sides and nearly the game with one.
    /// Everything is symmetric about row 7 (the ships on g1 and g13, the pirates on g5 and
    /// g9, the coins on g7) but the scores.
    #[test]
    fn a_lead_counts_for_more_the_less_gold_is_left() {
        let at = |coins: u32| {
            position(&format!(
                "item g7 coin {coins}\nunit 1.1 g5\nunit 2.1 g9\n\
                 score 1 = 5\nscore 2 = 3\nturn 1\n"
            ))
        };
        let (late, early) = (at(1), at(30));
        let me = Team::of(1).index();
        let plain = |g: &Game| rewards(g, &Prior::of(&g.public_view()))[me];
        let race = |g: &Game| race_rewards(g, &Prior::of(&g.public_view()))[me];
        assert!(
            (plain(&late) - plain(&early)).abs() < 1e-4,
            "{} {}",
            plain(&late),
            plain(&early)
        );
        assert!(plain(&late) > 0.5);
        let (early, late) = (race(&early), race(&late));
        assert!(early > 0.5 && early < plain(&at(1)) + 0.05, "{early}");
        assert!(late > early + 0.2, "{late} {early}");
        assert!(late > 0.95, "{late}");
    }

    /// Thirty coins between the sides, and a lead of two: a small edge with the stall guard
    /// far off, nearly the game when the guard is about to end it by score (R-END-6), and
    /// for the side behind nearly lost. [`rewards`] does not read the guard.
    #[test]
    fn a_lead_counts_for_more_as_the_stall_guard_nears() {
        let at = |stall: u32| {
            position(&format!(
                "item g7 coin 30\nunit 1.1 g5\nunit 2.1 g9\n\
                 score 1 = 5\nscore 2 = 3\nstall {stall}\nturn 1\n"
            ))
        };
        let (far, near) = (at(10), at(98));
        assert_eq!(far.turns_before_stall(), Some(90));
        assert_eq!(near.turns_before_stall(), Some(2));
        let (ahead, behind) = (Team::of(1).index(), Team::of(2).index());
        let plain = |g: &Game| rewards(g, &Prior::of(&g.public_view()));
        let race = |g: &Game| race_rewards(g, &Prior::of(&g.public_view()));
        assert!((plain(&far)[ahead] - plain(&near)[ahead]).abs() < 1e-4);
        assert!((race(&far)[ahead] - race(&at(60))[ahead]).abs() < 1e-4);
        assert!(race(&far)[ahead] < 0.8, "{}", race(&far)[ahead]);
        // Nearly the game, short of the little weighed on the long scale.
        assert!(race(&near)[ahead] > 0.92, "{}", race(&near)[ahead]);
        assert!(race(&near)[behind] < 0.08, "{}", race(&near)[behind]);
    }

    /// Team 2 has three pirates to team 1's one, but a point less. With the stall guard far
    /// off its pirates make it the side ahead; with the guard two turns from ending the game
    /// by score, the point is what counts, and the standoff is team 1's to sit out
    /// (R-END-6). Breaking it puts team 2 ahead again.
    #[test]
    fn the_score_counts_as_the_stall_guard_nears() {
        let at = |stall: u32| {
            position(&format!(
                "item g7 coin 10\nunit 1.1 g5\nunit 2.1 g9\nunit 2.2 f9\nunit 2.3 h9\n\
                 score 1 = 14\nscore 2 = 13\nstall {stall}\nturn 1\n"
            ))
        };
        let (units, score) = (Team::of(2).index(), Team::of(1).index());
        let race = |g: &Game| race_rewards(g, &Prior::of(&g.public_view()));
        let (far, near) = (race(&at(0)), race(&at(98)));
        assert!(far[units] > 0.6, "{far:?}");
        assert!(near[units] < 0.4 && near[score] > 0.6, "{near:?}");
        // Halfway into the last rounds the guard allows, half the pirates' worth counts.
        let half = race(&at(85));
        assert!(
            half[units] < far[units] && half[units] > near[units],
            "{half:?}"
        );
    }

    /// Nine points behind with the stall guard two turns off, the side behind has all but
    /// lost either way; still, a point more of its own is worth something to it, so that a
    /// search tells its better moves from its worse ones. A side that has lost already (a
    /// stranded duel) is worth nothing.
    #[test]
    fn a_side_far_behind_still_prefers_more_gold() {
        let at = |score: u32| {
            position(&format!(
                "item g7 coin 30\nunit 1.1 g5\nunit 2.1 g9\n\
                 score 1 = 12\nscore 2 = {score}\nstall 98\nturn 1\n"
            ))
        };
        let behind = Team::of(2).index();
        let race = |g: &Game| race_rewards(g, &Prior::of(&g.public_view()))[behind];
        let (worse, better) = (race(&at(3)), race(&at(4)));
        assert!(better < 0.05, "{better}");
        assert!(better - worse > 1e-3, "{better} {worse}");
        let stranded = position("tile e5 trap\nunit 1.1 e5 trapped\nunit 2.1 h9\nturn 2\n");
        let prior = Prior::of(&stranded.public_view());
        assert_eq!(race_rewards(&stranded, &prior)[..2], [0.0, 1.0]);
    }

    #[test]
    fn a_delivered_point_is_worth_more_than_gold_far_away() {
        assert!(discount(0) == 1.0);
        assert!(discount(10) < 0.4 && discount(10) > 0.3);
        assert_eq!(discount(FAR), 0.0);
    }
}
