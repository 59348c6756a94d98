//! The game state and the questions the rules ask of it.
//!
//! A [`Game`] is the whole state of one game: settings, tiles, units, vessels, items, scores,
//! whose turn it is and any pending choice. It is plain data (serde round-trips it exactly);
//! the rules that change it live in `moves`, `chain` and `turn`.

use serde::{Deserialize, Serialize};

use super::action::ChoiceKind;
use super::board::{Board, Cell, Side};
use super::event::Outcome;
use super::item::Items;
use super::mapgen::{self, MapError};
use super::settings::{Players, Settings};
use super::tile::{Tile, TileKind};
use super::unit::{Place, Team, Unit, UnitId, UnitKind, UnitRef, Units, Vessel, VesselId, Vessels};

/// Where items taken by a move came from; where restricted cargo returns (R-CHAIN-4, D-5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum ItemHome {
    Cell(Cell),
    Vessel(VesselId),
}

/// A unit move in progress: what R-CHAIN-2 needs to remember between entries.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Chain {
    pub(super) unit: UnitId,
    pub(super) cargo: Items,
    pub(super) origin: ItemHome,
    /// Entered (cell, maze step, motion) triples (R-CHAIN-6).
    pub(super) visited: super::visited::Visited,
}

/// A choice the acting team must answer (R-TURN-3).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Pending {
    pub(super) kind: ChoiceKind,
    /// The move in progress, for the choices inside a chain (exit, jump, flight, cave); none
    /// for those after it (reveal, quake).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) chain: Option<Chain>,
    /// The cell an earthquake's second `quake` choice swaps with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) first: Option<Cell>,
}

impl Pending {
    pub(super) fn in_chain(kind: ChoiceKind, chain: Chain) -> Pending {
        Pending {
            kind,
            chain: Some(chain),
            first: None,
        }
    }

    pub(super) fn after_chain(kind: ChoiceKind, first: Option<Cell>) -> Pending {
        Pending {
            kind,
            chain: None,
            first,
        }
    }

    pub fn kind(&self) -> ChoiceKind {
        self.kind
    }

    /// The unit whose move raised a choice inside its chain.
    pub fn unit(&self) -> Option<UnitId> {
        self.chain.as_ref().map(|c| c.unit)
    }

    /// The cargo that unit carries while the choice waits (R-SCORE-3 counts it in play).
    pub fn cargo(&self) -> Items {
        self.chain.as_ref().map_or(Items::NONE, |c| c.cargo)
    }

    /// The first cell of an earthquake's swap, once chosen.
    pub fn quake_first(&self) -> Option<Cell> {
        self.first
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Game {
    pub(super) settings: Settings,
    pub(super) board: Board,
    pub(super) seed: Option<u64>,
    /// One entry per cell of the square (board index); `None` on sea and missing corners.
    #[serde(with = "super::codec::tiles")]
    pub(super) tiles: Vec<Option<Tile>>,
    /// Items lying on each land cell (in a maze: on its last step, R-CARGO-1).
    #[serde(with = "super::codec::cell_items")]
    pub(super) items: Vec<Items>,
    pub(super) units: Units,
    pub(super) vessels: Vessels,
    pub(super) scores: [u32; 4],
    pub(super) rum: [u32; 4],
    pub(super) eliminated: [bool; 4],
    pub(super) turn: Team,
    pub(super) weed: u32,
    pub(super) weed_turn: bool,
    pub(super) stall: u32,
    /// A tile was opened or gold left play during the current turn (R-END-6).
    pub(super) progress: bool,
    pub(super) pending: Option<Pending>,
    /// Reveals and a quake still due once a chain has ended (R-CHAIN-8).
    #[serde(default, skip_serializing_if = "super::after::After::is_none")]
    pub(super) after: super::after::After,
    pub(super) outcome: Option<Outcome>,
    /// Gold accounting for the conservation invariant: points dealt, delivered and lost.
    pub(super) dealt_gold: u32,
    pub(super) delivered_gold: u32,
    pub(super) lost_gold: u32,
    /// Accepted actions so far.
    pub(super) ply: u32,
    /// Set on copies used to compute the fatal flag: opening fog stops the simulation.
    #[serde(skip)]
    pub(super) probe: bool,
    #[serde(skip)]
    pub(super) probe_hit_fog: bool,
}

/// Why a game could not be set up.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Map(#[from] MapError),
    /// Settings read from outside (a stored game, an import) name a side `Settings::set`
    /// would have refused.
    #[error("board_size {0} is not a board side: 5, 7, 9, 11 or 13")]
    BoardSize(u8),
    /// Settings read from outside with a pack `Pack::parse` would have refused: dealing it
    /// would take hours (see `MAX_PACK_TILES`).
    #[error("a pack of {0} tiles: a pack holds at most {max}", max = super::tile::MAX_PACK_TILES)]
    PackTooLarge(u64),
}

pub fn team_side(players: Players, team: Team) -> Side {
    match (players, team) {
        (_, Team(1)) => Side::South,
        (Players::Two, _) => Side::North,
        (_, Team(2)) => Side::West,
        (_, Team(3)) => Side::North,
        _ => Side::East,
    }
}

impl Game {
    /// A new game: the map dealt face down from `seed` (R-MAP), ships on their middle slots
    /// with pirates 1–3 aboard (R-SETUP-1), team 1 to move.
    pub fn new(settings: Settings, seed: u64) -> Result<Game, SetupError> {
        if Board::new(settings.board_size).is_none() {
            return Err(SetupError::BoardSize(settings.board_size));
        }
        if settings.tile_pack.size() > super::tile::MAX_PACK_TILES {
            return Err(SetupError::PackTooLarge(settings.tile_pack.size()));
        }
        let mut game = Game::blank(settings);
        game.deal(seed)?;
        game.start(&mut Vec::new());
        Ok(game)
    }

    /// Deals the pack face down onto the land cells from `seed` (R-MAP), as a new game and a
    /// scenario's `seed` line do.
    pub(super) fn deal(&mut self, seed: u64) -> Result<(), mapgen::MapError> {
        let board = self.board;
        let tiles = mapgen::generate(board, &self.settings.tile_pack.tiles(), seed)?;
        for (cell, tile) in board.land_cells().zip(tiles) {
            self.dealt_gold += tile.kind.hidden_gold();
            self.tiles[board.index(cell)] = Some(tile);
        }
        self.seed = Some(seed);
        Ok(())
    }

    /// The default scenario position (SCENARIOS §3.3): every land cell an open empty tile,
    /// ships on their middle slots, pirates aboard; turn processing not started.
    pub(super) fn blank(settings: Settings) -> Game {
        let board = settings.board();
        let mut tiles = vec![None; board.cell_count()];
        for cell in board.land_cells() {
            tiles[board.index(cell)] = Some(Tile::open(TileKind::Empty));
        }
        let mut game = Game {
            board,
            tiles,
            items: vec![Items::NONE; board.cell_count()],
            units: Units::default(),
            vessels: Vessels::default(),
            scores: [0; 4],
            rum: [0; 4],
            eliminated: [false; 4],
            turn: Team::of(1),
            weed: 0,
            weed_turn: false,
            stall: 0,
            progress: false,
            pending: None,
            after: Default::default(),
            outcome: None,
            dealt_gold: 0,
            delivered_gold: 0,
            lost_gold: 0,
            ply: 0,
            probe: false,
            probe_hit_fog: false,
            seed: None,
            settings,
        };
        for team in game.teams() {
            let side = team_side(game.settings.players, team);
            let ship = game.vessels.push(Vessel {
                owner: team,
                boat: false,
                cell: board.middle_slot(side),
                hits: 0,
                items: Items::NONE,
                sunk: false,
            });
            for n in 1..=3 {
                game.units
                    .push(Unit::new(team, UnitKind::Pirate(n), Place::Aboard(ship)));
            }
        }
        game
    }

    // ----- read access ---------------------------------------------------------------------

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    pub fn tile(&self, cell: Cell) -> Option<&Tile> {
        if !self.board.exists(cell) {
            return None;
        }
        self.tiles[self.board.index(cell)].as_ref()
    }

    /// Items lying on a land cell (for a maze: on its last step).
    pub fn items_at(&self, cell: Cell) -> Items {
        if !self.board.exists(cell) {
            return Items::NONE;
        }
        self.items[self.board.index(cell)]
    }

    /// Every unit of the game, the dead included, in a fixed order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Every unit with its id.
    pub fn units_with_ids(&self) -> impl Iterator<Item = (UnitId, &Unit)> {
        self.units.enumerate()
    }

    /// The unit `id` names. An id comes from this game (or one it was cloned from), so it
    /// always names a unit.
    pub fn unit_by_id(&self, id: UnitId) -> &Unit {
        &self.units[id]
    }

    /// Every vessel of the game, the sunk included, in a fixed order.
    pub fn vessels(&self) -> &[Vessel] {
        &self.vessels
    }

    /// Every vessel with its id.
    pub fn vessels_with_ids(&self) -> impl Iterator<Item = (VesselId, &Vessel)> {
        self.vessels.enumerate()
    }

    /// The vessel `id` names (see [`Game::unit_by_id`]).
    pub fn vessel(&self, id: VesselId) -> &Vessel {
        &self.vessels[id]
    }

    /// The team whose turn it is (R-SEAT-2).
    pub fn turn(&self) -> Team {
        self.turn
    }

    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// This position, counted as reached after `ply` actions: what a game becomes when the
    /// players take moves back by consent (the log goes on counting, one row a step, while the
    /// board returns to an earlier position).
    pub fn resumed_at(mut self, ply: u32) -> Game {
        self.ply = ply;
        self
    }

    pub fn score(&self, team: Team) -> u32 {
        self.scores[team.index()]
    }

    pub fn rum(&self, team: Team) -> u32 {
        self.rum[team.index()]
    }

    pub fn weed(&self) -> u32 {
        self.weed
    }

    pub fn stall(&self) -> u32 {
        self.stall
    }

    /// The turns without progress the stall guard still allows: at 0 it ends the game
    /// (R-END-6). `None` with the guard off.
    pub fn turns_before_stall(&self) -> Option<u32> {
        let teams = self.teams_in_play().count() as u32;
        let limit = u32::from(self.settings.stall_rounds) * teams;
        (limit > 0).then(|| limit.saturating_sub(self.stall))
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    pub fn pending_kind(&self) -> Option<ChoiceKind> {
        self.pending.as_ref().map(|p| p.kind)
    }

    pub fn is_eliminated(&self, team: Team) -> bool {
        self.eliminated[team.index()]
    }

    /// The teams of this game, 1-based.
    pub fn teams(&self) -> impl Iterator<Item = Team> + use<> {
        Team::ALL
            .into_iter()
            .take(self.settings.players.team_count() as usize)
    }

    pub fn teams_in_play(&self) -> impl Iterator<Item = Team> + '_ {
        self.teams().filter(|t| !self.is_eliminated(*t))
    }

    /// R-GEN-1: teams of the same side.
    pub fn allied(&self, a: Team, b: Team) -> bool {
        a == b || (self.settings.players == Players::TwoVsTwo && a.0 % 2 == b.0 % 2)
    }

    pub fn enemies(&self, a: Team, b: Team) -> bool {
        !self.allied(a, b)
    }

    /// The teams of `team`'s side, in team order.
    pub fn side_of(&self, team: Team) -> Vec<Team> {
        self.teams().filter(|t| self.allied(*t, team)).collect()
    }

    /// R-SCORE-2.
    pub fn side_score(&self, team: Team) -> u32 {
        self.teams()
            .filter(|t| self.allied(*t, team))
            .map(|t| self.score(t))
            .fold(0, u32::saturating_add)
    }

    /// The lowest team of `team`'s side, which names the side.
    pub fn side_key(&self, team: Team) -> Team {
        self.teams().find(|t| self.allied(*t, team)).unwrap_or(team)
    }

    /// Gold in play by the accounts: dealt minus delivered minus lost. Equal to
    /// [`Game::gold_in_play`] (the property tests hold them to it) but without scanning the
    /// board, for the end check after every turn.
    pub(crate) fn remaining_gold(&self) -> u32 {
        self.dealt_gold
            .saturating_sub(self.delivered_gold)
            .saturating_sub(self.lost_gold)
    }

    /// The player commanding the current turn (R-TURN-8, R-WEED-2).
    pub fn controller(&self) -> Team {
        if !self.weed_turn {
            return self.turn;
        }
        let order: Vec<Team> = self.teams_in_play().collect();
        let i = order.iter().position(|t| *t == self.turn).unwrap_or(0);
        order[(i + order.len() - 1) % order.len()]
    }

    /// Gold in play G (R-SCORE-3): hidden in fog, lying on the board, in hand during a choice.
    pub fn gold_in_play(&self) -> u32 {
        let hidden: u32 = self
            .tiles
            .iter()
            .flatten()
            .filter(|t| !t.open)
            .map(|t| t.kind.hidden_gold())
            .sum();
        let lying: u32 = self.items.iter().map(Items::gold_points).sum();
        let in_hand = self.pending.as_ref().map_or(0, |p| p.cargo().gold_points());
        hidden + lying + in_hand
    }

    /// Gold dealt, delivered and lost (for the conservation invariant).
    pub fn gold_accounts(&self) -> (u32, u32, u32) {
        (self.dealt_gold, self.delivered_gold, self.lost_gold)
    }

    /// The living unit `r`, by index.
    pub fn find_unit(&self, r: UnitRef) -> Option<UnitId> {
        self.units
            .enumerate()
            .find(|(_, u)| u.team == r.team && u.kind == r.kind && u.alive())
            .map(|(id, _)| id)
    }

    pub fn unit(&self, r: UnitRef) -> Option<&Unit> {
        self.find_unit(r).map(|i| &self.units[i])
    }

    /// The cell a living unit is on (its vessel's cell aboard, its entry cave when stuck).
    pub fn unit_cell(&self, id: UnitId) -> Option<Cell> {
        self.place_cell(self.units[id].place)
    }

    pub fn place_cell(&self, place: Place) -> Option<Cell> {
        match place {
            Place::Land { cell, .. } | Place::Swim(cell) | Place::Tunnel(cell) => Some(cell),
            Place::Aboard(v) => Some(self.vessels[v].cell),
            Place::Dead => None,
        }
    }

    /// The vessel afloat on `cell`, if any.
    pub fn vessel_at(&self, cell: Cell) -> Option<VesselId> {
        self.vessels
            .enumerate()
            .find(|(_, v)| !v.sunk && v.cell == cell)
            .map(|(id, _)| id)
    }

    pub fn main_ship(&self, team: Team) -> Option<VesselId> {
        self.vessels
            .enumerate()
            .find(|(_, v)| v.owner == team && !v.boat && !v.sunk)
            .map(|(id, _)| id)
    }

    /// Living units at a land position (cell and maze step).
    pub(crate) fn units_at(&self, cell: Cell, step: u8) -> impl Iterator<Item = UnitId> + '_ {
        self.units_where(move |p| p == Place::Land { cell, step })
    }

    /// Living units standing on a land cell, any maze step.
    pub(crate) fn units_on_cell(&self, cell: Cell) -> impl Iterator<Item = UnitId> + '_ {
        self.units_where(move |p| matches!(p, Place::Land { cell: c, .. } if c == cell))
    }

    pub(crate) fn swimmers_at(&self, cell: Cell) -> impl Iterator<Item = UnitId> + '_ {
        self.units_where(move |p| p == Place::Swim(cell))
    }

    pub(crate) fn aboard(&self, vessel: VesselId) -> impl Iterator<Item = UnitId> + '_ {
        self.units_where(move |p| p == Place::Aboard(vessel))
    }

    fn units_where<F: Fn(Place) -> bool + 'static>(
        &self,
        pred: F,
    ) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .enumerate()
            .filter(move |(_, u)| pred(u.place))
            .map(|(i, _)| i)
    }

    /// The maze size of an open maze tile on `cell`, 0 elsewhere.
    pub(crate) fn maze_steps(&self, cell: Cell) -> u8 {
        match self.tile(cell) {
            Some(t) if t.open => match t.kind {
                TileKind::Maze(k) => k,
                _ => 0,
            },
            _ => 0,
        }
    }

    /// The tile kind as it acts now on an open land cell; `None` for fog and sea.
    pub(crate) fn open_kind(&self, cell: Cell) -> Option<TileKind> {
        self.tile(cell).filter(|t| t.open).map(Tile::effective)
    }

    pub(crate) fn is_fog(&self, cell: Cell) -> bool {
        self.tile(cell).is_some_and(|t| !t.open)
    }

    /// Swaps the tiles of two cells, as no rule does (the earthquake swaps open tiles only):
    /// for tests that change what lies under the fog and nothing else.
    #[cfg(test)]
    pub(crate) fn swap_tiles_for_tests(&mut self, a: Cell, b: Cell) {
        let (ia, ib) = (self.board.index(a), self.board.index(b));
        self.tiles.swap(ia, ib);
    }

    pub(super) fn tile_mut(&mut self, cell: Cell) -> &mut Tile {
        let i = self.board.index(cell);
        self.tiles[i].as_mut().expect("a land cell")
    }

    pub(super) fn items_mut(&mut self, cell: Cell) -> &mut Items {
        let i = self.board.index(cell);
        &mut self.items[i]
    }

    pub(super) fn home_items_mut(&mut self, home: ItemHome) -> &mut Items {
        match home {
            ItemHome::Cell(c) => self.items_mut(c),
            ItemHome::Vessel(v) => &mut self.vessels[v].items,
        }
    }

    /// Items at the position a unit stands on, where it can take cargo (R-CARGO-3).
    pub(crate) fn home_of(&self, place: Place) -> Option<ItemHome> {
        match place {
            Place::Land { cell, step } => {
                let k = self.maze_steps(cell);
                (k == 0 || step == k).then_some(ItemHome::Cell(cell))
            }
            Place::Aboard(v) => Some(ItemHome::Vessel(v)),
            _ => None,
        }
    }

    pub(crate) fn home_items(&self, home: ItemHome) -> Items {
        match home {
            ItemHome::Cell(c) => self.items_at(c),
            ItemHome::Vessel(v) => self.vessels[v].items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's own counters saturate where a state (a stored snapshot, say) starts at
    /// the limit: a delivery never wraps a score round to nothing.
    #[test]
    fn a_score_at_the_limit_stays_there() {
        use crate::engine::setup::{At, ItemSetup, Setup, UnitFlags, UnitSetup};
        let cell = |t| Cell::parse(t).unwrap();
        let mut chest = Tile::fog(TileKind::Chest(1), 0);
        chest.open = false;
        let setup = Setup {
            tiles: vec![crate::engine::setup::TileSetup {
                cell: cell("d10"),
                tile: chest,
            }],
            units: vec![UnitSetup {
                unit: UnitRef {
                    team: Team::of(1),
                    kind: UnitKind::Pirate(1),
                },
                at: Some(At {
                    cell: cell("g2"),
                    step: None,
                }),
                flags: UnitFlags::default(),
            }],
            items: vec![ItemSetup {
                at: At {
                    cell: cell("g2"),
                    step: None,
                },
                item: crate::engine::Item::Coin,
                count: 1,
            }],
            ..Setup::default()
        };
        let mut game = Game::from_setup(&setup).unwrap();
        game.scores[0] = u32::MAX;
        game.start(&mut Vec::new());
        game.play_text("1 g1 coin").unwrap();
        assert_eq!(game.score(Team::of(1)), u32::MAX);
        assert_eq!(game.side_score(Team::of(1)), u32::MAX);
    }

    /// Settings come from outside too (a stored game's JSON, an import), not only through
    /// `Settings::set`: a side `set` would refuse is an error, not a panic.
    #[test]
    fn a_board_side_set_would_refuse_is_an_error() {
        for size in [0, 8, 200] {
            let settings = Settings {
                board_size: size,
                ..Settings::default()
            };
            assert!(matches!(
                Game::new(settings, 1),
                Err(SetupError::BoardSize(s)) if s == size
            ));
        }
    }
}
