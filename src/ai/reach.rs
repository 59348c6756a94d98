//! How far things are, in moves: from each cell, how many moves a carrier needs to bring gold
//! home ([`home`]), and how many a unit needs to stand there empty-handed ([`walk`]).
//!
//! Bots judge positions by these maps. They read open tiles only and treat every fog tile
//! alike, so a bot's judgement of a determinisation never depends on what it drew for the fog.

use crate::engine::{Board, Cell, Game, KNIGHT_JUMPS, Place, Side, Team, TileKind, Unit, VesselId};

/// Farther than anything on a board: "out of reach".
pub(super) const FAR: u16 = 200;

/// The cost of a cell that cannot be entered, in the tables of costs the search reads.
const BLOCKED: u16 = u16::MAX;

/// Moves from (or to) each cell of the board.
pub(super) struct Map {
    board: Board,
    moves: Vec<u16>,
}

impl Map {
    pub fn get(&self, cell: Cell) -> u16 {
        self.moves[self.board.index(cell)]
    }
}

/// Which cell's cost an edge of the search weighs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Weigh {
    /// Searching back from the goal: the cell the carrier steps into next is the one left by
    /// the search.
    Left,
    /// Searching out from the walker: the cell entered.
    Entered,
}

/// Moves to carry gold from each cell aboard a vessel of `team`'s side.
pub(super) fn home(game: &Game, team: Team) -> Map {
    let board = game.board();
    // Where the side's enemies stand, found once rather than for every cell.
    let mut guarded = vec![false; board.cell_count()];
    for unit in game.units() {
        if let Place::Land { cell, .. } = unit.place
            && game.enemies(unit.team, team)
        {
            guarded[board.index(cell)] = true;
        }
    }
    let costs = costs(game, |cell| {
        carrier_cost(game, cell, guarded[board.index(cell)])
    });
    search(game, home_sources(game, team), &costs, None, Weigh::Left)
}

/// Moves for the unit to stand on each cell, empty-handed (all `FAR` for a unit that cannot
/// walk anywhere now: dead, caught, swimming, in the tunnel).
#[cfg(test)]
pub(super) fn walk(game: &Game, unit: &Unit) -> Map {
    Walks::of(game).walk(game, unit)
}

/// The walkers' costs of a position, worked out once for all its units (walking costs the
/// same for every team).
pub(super) struct Walks {
    costs: Vec<u16>,
    exits: Exits,
}

impl Walks {
    pub fn of(game: &Game) -> Walks {
        Walks {
            costs: costs(game, |cell| walker_cost(game, cell)),
            exits: Exits::of(game),
        }
    }

    /// [`walk`] for `unit` of this position.
    pub fn walk(&self, game: &Game, unit: &Unit) -> Map {
        search(
            game,
            walk_sources(game, unit),
            &self.costs,
            Some(&self.exits),
            Weigh::Entered,
        )
    }
}

/// Where a walker entering an open arrow or horse goes on to: the arrow's exits, the horse's
/// jumps (R-ARROW-1, R-HORSE-1), rather than any of the eight cells around. Counting an
/// arrow as a way to every neighbour made fog behind it look a move or two from a ship
/// whose front cell is the arrow, when no exit leads there (seen in an arena game lost by
/// the stall guard, R-END-6, with a pirate flown in and out through arrows for fifty
/// rounds).
struct Exits {
    /// For each cell by index, its row in `rows`, or [`Exits::AROUND`] for the cells around.
    row_of: Vec<u16>,
    /// The cells a walker goes on to, by index; the board's cell count (no cell) fills a row.
    rows: Vec<[u16; 8]>,
}

impl Exits {
    const AROUND: u16 = u16::MAX;

    fn of(game: &Game) -> Exits {
        let board = game.board();
        let none = board.cell_count() as u16;
        let mut row_of = vec![Self::AROUND; board.cell_count()];
        let mut rows = Vec::new();
        // Written straight into a row: this runs for every position a bot judges.
        let row = |next: &mut dyn Iterator<Item = Cell>| {
            let mut row = [none; 8];
            for (slot, c) in row.iter_mut().zip(next.filter(|c| board.is_land(*c))) {
                *slot = board.index(c) as u16;
            }
            row
        };
        for cell in board.land_cells() {
            let next = match open_kind(game, cell) {
                Some(TileKind::Arrow(exits)) => {
                    row(&mut exits.iter().filter_map(|d| board.step(cell, d)))
                }
                Some(TileKind::Horse) => {
                    row(&mut KNIGHT_JUMPS.iter().filter_map(|v| board.jump(cell, *v)))
                }
                _ => continue,
            };
            row_of[board.index(cell)] = rows.len() as u16;
            rows.push(next);
        }
        Exits { row_of, rows }
    }

    /// The cells a walker on cell `i` goes on to, if not the cells around.
    fn of_cell(&self, i: usize) -> Option<&[u16; 8]> {
        match self.row_of[i] {
            Self::AROUND => None,
            row => Some(&self.rows[row as usize]),
        }
    }
}

/// Each cell's cost of entry by `cost`: [`BLOCKED`] for sea cells and for those that cannot be
/// entered (or end badly).
fn costs(game: &Game, cost: impl Fn(Cell) -> Option<u16>) -> Vec<u16> {
    let board = game.board();
    // One more than the board's cells, blocked: what the search reads for a missing
    // neighbour.
    (0..=board.cell_count())
        .map(|i| {
            let cell = board.cell_at(i);
            if i < board.cell_count() && board.is_land(cell) {
                cost(cell).unwrap_or(BLOCKED)
            } else {
                BLOCKED
            }
        })
        .collect()
}

/// Least-cost distances over land cells from `sources` (cell, starting cost), on each
/// cell's cost of entry worked out beforehand.
///
/// Costs are small whole numbers and distances stop at [`FAR`], so the search keeps one
/// bucket of cells per distance (Dial's form of Dijkstra's algorithm) instead of a heap, and
/// reads each cell's cost from a table rather than working it out for each of its eight
/// neighbours: this runs several times for every position a bot judges.
fn search(
    game: &Game,
    sources: Vec<(Cell, u16)>,
    costs: &[u16],
    exits: Option<&Exits>,
    weigh: Weigh,
) -> Map {
    let board = game.board();
    let cells = board.cell_count();
    // One more than the board's cells: the last stands for every missing neighbour, at no
    // distance at all, so that nothing ever comes nearer to it.
    let mut moves = vec![FAR; cells + 1];
    moves[cells] = 0;
    let dist = &mut moves[..=cells];
    let costs = &costs[..=cells];
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.prepare(board);
        let Scratch {
            around, buckets, ..
        } = scratch;
        let around = &around[..cells];
        // The farthest bucket filled so far: the search ends there rather than at `FAR`.
        let mut top = 0usize;
        for (cell, d) in sources {
            let i = board.index(cell);
            if d < dist[i] {
                dist[i] = d;
                buckets[d as usize].push(i as u16);
                top = top.max(d as usize);
            }
        }
        let mut d = 0usize;
        while d <= top {
            let bucket = std::mem::take(&mut buckets[d]);
            for &i in &bucket {
                let i = i as usize;
                if dist[i] as usize != d {
                    continue;
                }
                let here = d as u16;
                match weigh {
                    Weigh::Left => {
                        // Every neighbour steps into this cell: its cost counts for all.
                        let step = match costs[i] {
                            // A balloon is a goal (cost 0 here) that takes one move to enter.
                            BLOCKED if d == 0 => 1,
                            BLOCKED => continue,
                            c => c,
                        };
                        let nd = (here + step).min(FAR);
                        for &j in &around[i] {
                            relax(dist, buckets, &mut top, j as usize, nd);
                        }
                    }
                    Weigh::Entered => {
                        let next = exits.and_then(|e| e.of_cell(i)).unwrap_or(&around[i]);
                        for &j in next {
                            let j = j as usize;
                            let step = costs[j];
                            if step != BLOCKED {
                                relax(dist, buckets, &mut top, j, (here + step).min(FAR));
                            }
                        }
                    }
                }
            }
            // Handed back empty, its room kept for the next search.
            let mut bucket = bucket;
            bucket.clear();
            buckets[d] = bucket;
            d += 1;
        }
    });
    moves.truncate(cells);
    Map { board, moves }
}

/// Brings cell `j` to `nd` moves if that is nearer than it was.
#[inline(always)]
fn relax(dist: &mut [u16], buckets: &mut [Vec<u16>], top: &mut usize, j: usize, nd: u16) {
    if nd < dist[j] {
        dist[j] = nd;
        if nd < FAR {
            buckets[nd as usize].push(j as u16);
            *top = (*top).max(nd as usize);
        }
    }
}

thread_local! {
    /// What [`search`] keeps between searches, so that a search allocates nothing but its
    /// result.
    static SCRATCH: std::cell::RefCell<Scratch> = const {
        std::cell::RefCell::new(Scratch {
            board: None,
            around: Vec::new(),
            buckets: Vec::new(),
        })
    };
}

struct Scratch {
    /// The board `around` is for.
    board: Option<Board>,
    /// The eight neighbours of each cell by index, the board's cell count (one past its last
    /// cell) for each that is not land: eight of them for every cell, so that the search's
    /// inner loop has a fixed length.
    around: Vec<[u16; 8]>,
    /// Cells by their distance: the queue of the search. Every bucket is empty between
    /// searches.
    buckets: Vec<Vec<u16>>,
}

impl Scratch {
    fn prepare(&mut self, board: Board) {
        if self.board != Some(board) {
            let none = board.cell_count() as u16;
            self.around = (0..board.cell_count())
                .map(|i| {
                    let mut row = [none; 8];
                    let cell = board.cell_at(i);
                    if board.is_land(cell) {
                        let land = board.neighbours(cell).filter(|c| board.is_land(*c));
                        for (slot, c) in row.iter_mut().zip(land) {
                            *slot = board.index(c) as u16;
                        }
                    }
                    row
                })
                .collect();
            self.board = Some(board);
        }
        self.buckets.resize_with(FAR as usize, Vec::new);
    }
}

/// Land cells from which gold reaches home in one more move, with the moves the vessel needs
/// to come alongside: next to a vessel of the side (a main ship with a sailor aboard can move
/// along its side to meet the carrier, R-SHIP-1), and balloons, which carry a unit home with
/// its cargo (R-BALLOON-1: cost 0 here, one move to enter).
fn home_sources(game: &Game, team: Team) -> Vec<(Cell, u16)> {
    let board = game.board();
    let mut out = Vec::new();
    for (v, vessel) in game.vessels_with_ids() {
        if vessel.sunk || !game.allied(vessel.owner, team) {
            continue;
        }
        let sails = !vessel.boat && has_sailor(game, v, vessel.owner);
        for (slot, moves) in reachable_slots(board, vessel.cell, sails) {
            out.extend(
                board
                    .neighbours(slot)
                    .filter(|c| board.is_land(*c))
                    .map(|c| (c, moves + 1)),
            );
        }
    }
    for cell in board.land_cells() {
        if open_kind(game, cell) == Some(TileKind::Balloon) {
            out.push((cell, 0));
        }
    }
    out
}

/// Where the unit stands (or lands first, from a vessel), with the moves that takes.
fn walk_sources(game: &Game, unit: &Unit) -> Vec<(Cell, u16)> {
    let board = game.board();
    if !unit.alive() || unit.trapped {
        return Vec::new();
    }
    let sober = if unit.drunk { 2 } else { 0 };
    match unit.place {
        Place::Land { cell, step } => {
            let maze = match open_kind(game, cell) {
                Some(TileKind::Maze(k)) => k.saturating_sub(step.max(1)) as u16,
                _ => 0,
            };
            vec![(cell, sober + maze)]
        }
        Place::Aboard(v) => {
            let vessel = game.vessel(v);
            if vessel.boat {
                board
                    .neighbours(vessel.cell)
                    .filter(|c| board.is_land(*c) && keeps_a_lander(game, *c))
                    .map(|c| (c, sober + 1))
                    .collect()
            } else {
                let sails = has_sailor(game, v, vessel.owner);
                reachable_slots(board, vessel.cell, sails)
                    .into_iter()
                    .filter_map(|(slot, moves)| {
                        board
                            .front_cell(slot)
                            .filter(|front| keeps_a_lander(game, *front))
                            .map(|front| (front, sober + moves + 1))
                    })
                    .collect()
            }
        }
        // A swimmer climbs aboard the nearest vessel of its side, then lands from it.
        Place::Swim(cell) => match swim_to_vessel(game, cell, unit.team) {
            Some((v, moves)) => {
                let aboard = Unit {
                    place: Place::Aboard(v),
                    ..*unit
                };
                walk_sources(game, &aboard)
                    .into_iter()
                    .map(|(c, m)| (c, m + moves))
                    .collect()
            }
            None => Vec::new(),
        },
        Place::Tunnel(_) | Place::Dead => Vec::new(),
    }
}

/// Does a unit landing on `cell` from a vessel stay on land, alive? Not on a crocodile (back
/// aboard, R-CROC-1), a balloon (back to a vessel, R-BALLOON-1), a cannon (fired into the sea,
/// R-CANNON-1), an arrow whose every exit is sea (R-ARROW-3) or the cannibal (eaten): a side
/// whose ship's front cell is one of these must sail along to land, and a walk counting that
/// landing as one move would leave it stepping off and back aboard for good, or count its
/// pirates as able to walk inland from a ship in front of the cannibal. Fog and every other
/// open tile keep it. The tiles but the arrow are those no walker enters ([`walker_cost`]).
fn keeps_a_lander(game: &Game, cell: Cell) -> bool {
    let board = game.board();
    match open_kind(game, cell) {
        Some(TileKind::Arrow(exits)) => exits
            .iter()
            .any(|d| board.step(cell, d).is_some_and(|c| board.is_land(c))),
        _ => walker_cost(game, cell).is_some(),
    }
}

/// The nearest vessel of `team`'s side a swimmer on `from` can climb aboard, and the moves
/// (through sea cells, R-SWIM-1) that takes.
fn swim_to_vessel(game: &Game, from: Cell, team: Team) -> Option<(VesselId, u16)> {
    let board = game.board();
    let mut seen = vec![false; board.cell_count()];
    let mut frontier = vec![from];
    seen[board.index(from)] = true;
    let mut moves = 0u16;
    while !frontier.is_empty() && moves < FAR {
        moves += 1;
        let mut next = Vec::new();
        for cell in frontier {
            for n in board.neighbours(cell).filter(|c| board.is_sea(*c)) {
                if let Some(v) = game.vessel_at(n)
                    && game.allied(game.vessel(v).owner, team)
                {
                    return Some((v, moves));
                }
                let i = board.index(n);
                if !seen[i] && game.vessel_at(n).is_none() {
                    seen[i] = true;
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    None
}

/// Can this vessel move: an able fighting unit of its owner aboard (R-VESSEL-3)?
fn has_sailor(game: &Game, vessel: VesselId, owner: Team) -> bool {
    game.units()
        .iter()
        .any(|u| u.team == owner && u.place == Place::Aboard(vessel) && u.able() && u.sails())
}

/// The slots a main ship on `cell` can reach along its side, with the moves each takes; only
/// its own cell when it cannot sail (or is a boat, or off the slots).
fn reachable_slots(board: Board, cell: Cell, sails: bool) -> Vec<(Cell, u16)> {
    let Some(side) = board.slot_side(cell).filter(|_| sails) else {
        return vec![(cell, 0)];
    };
    let last = board.size() - 1;
    let along_rows = matches!(side, Side::South | Side::North);
    let along = if along_rows { cell.col } else { cell.row };
    (2..=last - 2)
        .map(|i| {
            let slot = if along_rows {
                Cell::new(i, cell.row)
            } else {
                Cell::new(cell.col, i)
            };
            (slot, (i as i16 - along as i16).unsigned_abs())
        })
        .collect()
}

/// The kind of an open tile as it acts now; `None` for fog and sea.
pub(super) fn open_kind(game: &Game, cell: Cell) -> Option<TileKind> {
    game.tile(cell).filter(|t| t.open).map(|t| t.effective())
}

/// Entering with gold in hand (R-CARGO-5): no fog, fortress, jungle or enemies; forced tiles
/// are avoided (where they throw the cargo is not worth working out here). Enemies standing
/// there (`guarded`) must be driven off first.
fn carrier_cost(game: &Game, cell: Cell, guarded: bool) -> Option<u16> {
    let Some(kind) = open_kind(game, cell) else {
        // Someone must open it first, and it may turn out to be no road at all.
        return Some(4);
    };
    let base = match kind {
        TileKind::Fortress | TileKind::ResFort | TileKind::Jungle | TileKind::Cannibal => {
            return None;
        }
        k if !k.is_stop() => return None,
        TileKind::Maze(k) => k as u16,
        TileKind::Barrel => 3,
        TileKind::Trap => 5,
        TileKind::Cave => 2,
        _ => 1,
    };
    Some(base + if guarded { 3 } else { 0 })
}

/// Walking empty-handed: fog is fine (and may throw the walker about), the cannibal is not,
/// nor is a tile that sends the walker back where it came from or out to sea (R-CROC-1,
/// R-CANNON-1). Arrows and horses lead on only where they point ([`Exits`]).
fn walker_cost(game: &Game, cell: Cell) -> Option<u16> {
    let Some(kind) = open_kind(game, cell) else {
        return Some(1);
    };
    Some(match kind {
        TileKind::Cannibal | TileKind::Balloon | TileKind::Crocodile | TileKind::Cannon(_) => {
            return None;
        }
        TileKind::Maze(k) => k as u16,
        TileKind::Barrel => 3,
        TileKind::Trap => 4,
        k if !k.is_stop() => 2,
        _ => 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Players, Settings};

    /// The scenario position's game and its one living pirate of team 1.
    fn lone_pirate(text: &str) -> (Game, Unit) {
        let game = crate::scenario::position_after_plays(text).unwrap().0;
        let pirate = *game
            .units()
            .iter()
            .find(|u| u.team == Team::of(1) && u.alive())
            .unwrap();
        (game, pirate)
    }

    fn pirate_aboard(front: &str) -> Map {
        let (game, pirate) = lone_pirate(&format!(
            "set tile_pack = classic\n{front}unit 1.1 g1\nturn 1\n"
        ));
        assert_eq!(
            pirate.place,
            Place::Aboard(game.main_ship(Team::of(1)).unwrap())
        );
        walk(&game, &pirate)
    }

    /// A pirate landing on the ship's front cell (g2) from its ship (g1) stays there, or is
    /// thrown on inland, unless the tile sends it back to sea or kills it: then the ship must
    /// sail along a slot first, and g3 beyond the front cell is three moves away, not two
    /// (R-ARROW-3, R-CROC-1, R-BALLOON-1, R-CANNON-1, R-CANNIBAL-1; ice and horses throw on
    /// inland, R-ICE-1, R-HORSE-1).
    #[test]
    fn a_front_cell_that_throws_back_to_sea_is_no_landing() {
        let [g2, g3, f2] = ["g2", "g3", "f2"].map(|c| Cell::parse(c).unwrap());
        let open = pirate_aboard("");
        assert_eq!((open.get(g2), open.get(g3)), (1, 2));
        for back in [
            "arrow s",
            "arrow se+sw",
            "crocodile",
            "balloon",
            "cannon s",
            "cannibal",
        ] {
            let walk = pirate_aboard(&format!("tile g2 {back}\n"));
            assert_eq!((walk.get(f2), walk.get(g3)), (2, 3), "{back}");
        }
        // A horse throws on inland too, but only by a jump ([`Exits`]).
        for inland in ["arrow n", "arrow s+n", "ice"] {
            let walk = pirate_aboard(&format!("tile g2 {inland}\n"));
            assert_eq!((walk.get(g2), walk.get(g3)), (1, 2), "{inland}");
            assert_eq!(walk.get(f2), 2, "{inland}");
        }
    }

    /// A pirate landing on an arrow or a horse in front of its ship (g1) goes on only where
    /// the tile leads (R-ARROW-1, R-HORSE-1): through the arrow's one exit to h3, by a jump to
    /// h4; the cells beside the front cell that the tile does not lead to are reached by
    /// sailing along first (f2 in two moves, then g3 in three), not in two.
    #[test]
    fn arrows_and_horses_lead_on_only_where_they_point() {
        let [f2, g3, h3, h4] = ["f2", "g3", "h3", "h4"].map(|c| Cell::parse(c).unwrap());
        let open = pirate_aboard("");
        assert_eq!((open.get(g3), open.get(h3)), (2, 2));
        let arrow = pirate_aboard("tile g2 arrow ne\n");
        assert_eq!((arrow.get(h3), arrow.get(f2), arrow.get(g3)), (2, 2, 3));
        let horse = pirate_aboard("tile g2 horse\n");
        assert_eq!((horse.get(h4), horse.get(g3)), (2, 3));
    }

    /// A walker does not count on crossing the cannibal, a crocodile (back where it came
    /// from, R-CROC-1) or a cannon (out to sea, R-CANNON-1): from g3, the pirate's way to g5
    /// past such a tile on g4 goes round it, and the tile itself is out of reach.
    #[test]
    fn a_walker_goes_round_tiles_that_kill_or_throw_it_back() {
        for tile in ["cannibal", "crocodile", "cannon n"] {
            let (game, pirate) = lone_pirate(&format!(
                "set tile_pack = classic\ntile g3 empty\ntile g4 {tile}\nunit 1.1 g3\nturn 1\n"
            ));
            let walk = walk(&game, &pirate);
            let [g4, g5] = ["g4", "g5"].map(|c| Cell::parse(c).unwrap());
            assert_eq!((walk.get(g4), walk.get(g5)), (FAR, 2), "{tile}");
        }
    }

    #[test]
    fn at_the_start_everything_is_reached_from_the_ships() {
        let settings = Settings {
            board_size: 13,
            players: Players::Two,
            tile_pack: Pack::Classic,
            ..Settings::default()
        };
        let game = Game::new(settings, 1).unwrap();
        let g2 = Cell::parse("g2").unwrap();
        let g12 = Cell::parse("g12").unwrap();
        // A pirate aboard lands on the front cell in one move.
        let pirate = game.units().iter().find(|u| u.team == Team::of(1)).unwrap();
        let walk = walk(&game, pirate);
        assert_eq!(walk.get(g2), 1);
        assert!(walk.get(g12) > walk.get(g2));
        // Gold on the front cell boards in one move; deep in the fog it takes longer.
        let south = home(&game, Team::of(1));
        assert_eq!(south.get(g2), 1);
        assert!(south.get(g12) > 10 && south.get(g12) < FAR);
        let north = home(&game, Team::of(2));
        assert_eq!(north.get(g12), 1);
        assert!(north.get(g2) > 10);
    }
}
