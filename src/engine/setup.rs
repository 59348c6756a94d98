//! A position built from its parts and checked before it becomes a game (SCENARIOS §3).
//!
//! [`Setup`] is plain data: the settings, an optional seed to deal the island from, and lists
//! of tiles, units, vessels and items, as a scenario writes them. [`Game::from_setup`] checks
//! that together they are a position the rules can be played from (SCENARIOS §3.4) and builds
//! the game, or says which part is wrong ([`PositionError`]). Nothing outside the engine
//! writes a game's state directly.

use super::board::{Cell, Side};
use super::game::{Game, team_side};
use super::item::{Item, Items};
use super::settings::{PlaneSeats, Settings};
use super::tile::{Tile, TileKind};
use super::unit::{Place, Seat, Team, Unit, UnitKind, UnitRef, Vessel};

/// A position in parts. Every list keeps the order it was given in; an error names the part by
/// its list and place ([`Part`]).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub settings: Settings,
    /// Deal the island face down from this seed (R-MAP); without one every land cell holds an
    /// open `empty` tile. `tiles` then replace single cells.
    pub seed: Option<u64>,
    pub tiles: Vec<TileSetup>,
    pub units: Vec<UnitSetup>,
    /// Main ships placed or changed; the others stay on their middle slots.
    pub ships: Vec<ShipSetup>,
    pub boats: Vec<BoatSetup>,
    pub items: Vec<ItemSetup>,
    pub scores: Vec<(Team, u32)>,
    pub rum: Vec<(Team, u32)>,
    /// The acting team (team 1 by default).
    pub turn: Option<Team>,
    pub weed: u32,
    pub stall: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct TileSetup {
    pub cell: Cell,
    pub tile: Tile,
}

/// Where a unit or items are: a land cell (with its maze step), or a sea cell (aboard the
/// vessel there, or swimming).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub cell: Cell,
    pub step: Option<u8>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitFlags {
    pub drunk: bool,
    pub trapped: bool,
    /// In the cave tunnel, having entered by the cave it is placed on.
    pub stuck: bool,
    pub seat: Option<Seat>,
    pub converted: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct UnitSetup {
    pub unit: UnitRef,
    /// `None`: a dead ordinary pirate.
    pub at: Option<At>,
    pub flags: UnitFlags,
}

#[derive(Clone, Copy, Debug)]
pub struct ShipSetup {
    pub team: Team,
    /// `None`: the ship has sunk.
    pub cell: Option<Cell>,
    pub hits: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct BoatSetup {
    pub team: Team,
    pub cell: Cell,
}

#[derive(Clone, Copy, Debug)]
pub struct ItemSetup {
    pub at: At,
    pub item: Item,
    pub count: u32,
}

/// The part of a [`Setup`] an error is about: the list and the place in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Settings,
    Seed,
    Tile(usize),
    Unit(usize),
    Ship(usize),
    Boat(usize),
    Item(usize),
    Score(usize),
    Rum(usize),
    Turn,
    Weed,
    Stall,
}

/// Why a setup is no position to play from, and which part says so.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PositionError {
    pub part: Part,
    pub message: String,
}

fn wrong(part: Part, message: impl Into<String>) -> PositionError {
    PositionError {
        part,
        message: message.into(),
    }
}

/// The highest score a position may hold: the most gold any game can deal, every land cell of
/// the largest board a chest of 5 coins (R-PACK-6 lets a custom pack be all chests). A higher
/// score is no position of any game, and refusing it keeps the engine's counters far from
/// their limits.
pub fn max_score() -> u32 {
    let largest = super::board::Board::new(13).expect("13 is a board size");
    largest.land_count() as u32 * TileKind::Chest(5).hidden_gold()
}

/// The number of hits that sinks a main ship (R-SINK-2).
pub fn hits_to_sink(board_size: u8) -> u32 {
    if board_size == 13 { 2 } else { 1 }
}

impl Game {
    /// The game `setup` describes, checked (SCENARIOS §3.4); turn processing not started (a
    /// scenario starts it, SCENARIOS §3.5).
    pub fn from_setup(setup: &Setup) -> Result<Game, PositionError> {
        let settings = &setup.settings;
        if super::board::Board::new(settings.board_size).is_none() {
            return Err(wrong(
                Part::Settings,
                format!("board_size {} is not a board side", settings.board_size),
            ));
        }
        let mut game = Game::blank(settings.clone());
        if let Some(seed) = setup.seed {
            game.deal(seed)
                .map_err(|e| wrong(Part::Seed, e.to_string()))?;
        }
        game.place_tiles(&setup.tiles)?;
        game.place_ships(&setup.ships)?;
        game.place_boats(&setup.boats)?;
        game.place_units(&setup.units)?;
        game.check_units_together(&setup.units)?;
        for (i, item) in setup.items.iter().enumerate() {
            game.place_item(item).map_err(|m| wrong(Part::Item(i), m))?;
        }
        game.place_counters(setup)?;
        game.check_sunk_ships(setup)?;
        if let Some(team) = setup.turn {
            if game.is_eliminated(team) {
                return Err(wrong(
                    Part::Turn,
                    format!("team {team} is not in play: its side has no vessel left"),
                ));
            }
            game.turn = team;
        }
        game.dealt_gold = game.gold_in_play();
        Ok(game)
    }

    fn place_tiles(&mut self, tiles: &[TileSetup]) -> Result<(), PositionError> {
        let board = self.board;
        for (i, t) in tiles.iter().enumerate() {
            let part = Part::Tile(i);
            if !board.exists(t.cell) || !board.is_land(t.cell) {
                return Err(wrong(
                    part,
                    format!("{} is a sea cell: tiles lie on land", t.cell),
                ));
            }
            let tile = t.tile;
            if tile.used
                && (!tile.open || !(tile.kind.has_trigger() || tile.kind == TileKind::Plane))
                && !(tile.open && tile.kind.acts_on_opening())
            {
                return Err(wrong(
                    part,
                    "`used` only applies to open first-entry tiles and planes",
                ));
            }
            self.tiles[board.index(t.cell)] = Some(tile);
        }
        Ok(())
    }

    fn place_ships(&mut self, ships: &[ShipSetup]) -> Result<(), PositionError> {
        let board = self.board;
        let mut placed: Vec<Team> = Vec::new();
        for (i, s) in ships.iter().enumerate() {
            let part = Part::Ship(i);
            if !self.teams().any(|t| t == s.team) {
                return Err(wrong(part, format!("team {} does not take part", s.team)));
            }
            if placed.contains(&s.team) {
                return Err(wrong(part, format!("ship {} is placed twice", s.team)));
            }
            placed.push(s.team);
            let v = self.main_ship(s.team).expect("every team has a ship");
            match s.cell {
                None => {
                    if !self.settings.destroying_ships {
                        return Err(wrong(
                            part,
                            "a ship can only have sunk with `destroying_ships` on",
                        ));
                    }
                    self.vessels[v].sunk = true;
                }
                Some(cell) => {
                    let side: Side = team_side(self.settings.players, s.team);
                    if !board.is_slot_of(cell, side) {
                        return Err(wrong(
                            part,
                            format!("{cell} is not a ship slot of team {}'s side", s.team),
                        ));
                    }
                    // Vessels are never hit while `destroying_ships` is off (R-SINK-1).
                    if s.hits > 0 && !self.settings.destroying_ships {
                        return Err(wrong(
                            part,
                            "a ship takes no hits while destroying_ships is off".to_string(),
                        ));
                    }
                    let sinks = hits_to_sink(self.settings.board_size);
                    if s.hits >= sinks {
                        return Err(wrong(
                            part,
                            format!("a ship sinks at {sinks} hit(s) on this board"),
                        ));
                    }
                    let vessel = &mut self.vessels[v];
                    vessel.cell = cell;
                    vessel.hits = s.hits as u8;
                }
            }
        }
        // Two vessels on one cell (§3.4 item 2): named at the ship placed last.
        for (i, s) in ships.iter().enumerate() {
            if let Some(cell) = s.cell
                && self
                    .vessels
                    .iter()
                    .filter(|o| !o.sunk && o.cell == cell)
                    .count()
                    > 1
            {
                return Err(wrong(Part::Ship(i), format!("two vessels on {cell}")));
            }
        }
        Ok(())
    }

    fn place_boats(&mut self, boats: &[BoatSetup]) -> Result<(), PositionError> {
        let board = self.board;
        for (i, b) in boats.iter().enumerate() {
            let part = Part::Boat(i);
            if !self.teams().any(|t| t == b.team) {
                return Err(wrong(part, format!("team {} does not take part", b.team)));
            }
            if !board.exists(b.cell) || !board.is_sea(b.cell) {
                return Err(wrong(
                    part,
                    format!("{}: a boat floats on a sea cell", b.cell),
                ));
            }
            if self.vessel_at(b.cell).is_some() {
                return Err(wrong(part, format!("two vessels on {}", b.cell)));
            }
            self.vessels.push(Vessel {
                owner: b.team,
                boat: true,
                cell: b.cell,
                hits: 0,
                items: Items::NONE,
                sunk: false,
            });
        }
        Ok(())
    }

    /// "Which units exist" (SCENARIOS §3.2): a team without any unit listed keeps its pirates
    /// aboard its ship; a team with one has exactly the listed units, its other pirates dead.
    fn place_units(&mut self, units: &[UnitSetup]) -> Result<(), PositionError> {
        let listed: Vec<Team> = units.iter().map(|u| u.unit.team).collect();
        for (i, u) in units.iter().enumerate() {
            let part = Part::Unit(i);
            if !self.teams().any(|t| t == u.unit.team) {
                return Err(wrong(
                    part,
                    format!("team {} does not take part", u.unit.team),
                ));
            }
            if units[..i].iter().any(|o| o.unit == u.unit) {
                return Err(wrong(part, format!("unit {} is given twice", u.unit)));
            }
            let special = !u.unit.kind.is_pirate();
            if special && units[..i].iter().any(|o| o.unit.kind == u.unit.kind) {
                return Err(wrong(
                    part,
                    format!("a game has one {} at most", kind_words(u.unit.kind)),
                ));
            }
            if special && u.at.is_none() {
                return Err(wrong(
                    part,
                    "only ordinary pirates are recorded dead (R-UNIT-3)",
                ));
            }
        }
        self.units.retain(|u| !listed.contains(&u.team));
        for team in self.teams() {
            if !listed.contains(&team) {
                continue;
            }
            for n in 1..=3 {
                let kind = UnitKind::Pirate(n);
                if !units
                    .iter()
                    .any(|u| u.unit.team == team && u.unit.kind == kind)
                {
                    self.units.push(Unit::new(team, kind, Place::Dead));
                }
            }
        }
        for (i, u) in units.iter().enumerate() {
            let unit = self.placed_unit(u).map_err(|m| wrong(Part::Unit(i), m))?;
            self.units.push(unit);
        }
        self.check_seats(units)?;
        if units.iter().filter(|u| u.flags.stuck).count() > 1 {
            let i = units.iter().rposition(|u| u.flags.stuck).expect("two");
            return Err(wrong(
                Part::Unit(i),
                "the tunnel holds one stuck unit at most (R-CAVE-4)",
            ));
        }
        Ok(())
    }

    /// One listed unit, its position and flags checked.
    fn placed_unit(&self, u: &UnitSetup) -> Result<Unit, String> {
        let r = u.unit;
        let Some(at) = u.at else {
            if u.flags != UnitFlags::default() {
                return Err("a dead unit has no flags".into());
            }
            return Ok(Unit::new(r.team, r.kind, Place::Dead));
        };
        let board = self.board;
        let cell = at.cell;
        let flags = u.flags;
        let place = if board.is_sea(cell) {
            if at.step.is_some() {
                return Err("`step` is only for maze cells".into());
            }
            match self.vessel_at(cell) {
                Some(v) => {
                    if self.enemies(self.vessels[v].owner, r.team) {
                        return Err(format!("unit {r} aboard a vessel of another side"));
                    }
                    Place::Aboard(v)
                }
                None => Place::Swim(cell),
            }
        } else {
            let tile = self.tile(cell).expect("land");
            if !tile.open {
                return Err(format!("unit on a fog tile ({cell})"));
            }
            let kind = tile.effective();
            if !kind.is_stop() && !matches!(kind, TileKind::Cannon(_)) {
                return Err(format!("a unit cannot stand on the {} tile", tile.kind));
            }
            let k = self.maze_steps(cell);
            match (k, at.step) {
                (0, Some(_)) => return Err("`step` is only for maze cells".into()),
                (k, None) if k > 0 => return Err(format!("{cell} is a maze: give the step")),
                (k, Some(s)) if s == 0 || s > k => {
                    return Err(format!("the maze on {cell} has steps 1–{k}"));
                }
                _ => {}
            }
            if flags.stuck {
                if kind != TileKind::Cave {
                    return Err("`stuck` needs an open cave".into());
                }
                if self.settings.boardgame_caves {
                    return Err("no unit is stuck with `boardgame_caves` on (R-CAVE-7)".into());
                }
                Place::Tunnel(cell)
            } else {
                Place::Land {
                    cell,
                    step: at.step.unwrap_or(0),
                }
            }
        };
        let mut unit = Unit::new(r.team, r.kind, place);
        unit.drunk = flags.drunk;
        if flags.converted {
            if r.kind != UnitKind::Missionary {
                return Err("only the missionary is converted".into());
            }
            unit.converted = true;
        }
        let on =
            |k: TileKind| matches!(place, Place::Land { .. }) && self.open_kind(cell) == Some(k);
        if flags.trapped {
            if !on(TileKind::Trap) {
                return Err("`trapped` needs a trap cell".into());
            }
            if r.kind == UnitKind::Friday {
                return Err("Friday is never caught by a trap (R-FRIDAY-2)".into());
            }
            unit.trapped = true;
        }
        if let Some(seat) = flags.seat {
            let word = if seat == Seat::Pilot {
                "pilot"
            } else {
                "passenger"
            };
            if !on(TileKind::Plane) {
                return Err(format!("`{word}` needs an unspent open plane"));
            }
            if seat == Seat::Passenger && self.settings.plane_seats == PlaneSeats::One {
                return Err("the plane has one seat (`plane_seats = one`)".into());
            }
            unit.seat = Some(seat);
        }
        if flags.stuck && (flags.trapped || flags.seat.is_some()) {
            return Err("a stuck unit is in the tunnel, in no trap or seat".into());
        }
        Ok(unit)
    }

    /// One pilot at most per plane; a passenger needs a pilot.
    fn check_seats(&self, units: &[UnitSetup]) -> Result<(), PositionError> {
        for cell in self.board.land_cells() {
            let seated: Vec<(usize, Seat)> = units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.at.map(|a| a.cell) == Some(cell))
                .filter_map(|(i, u)| u.flags.seat.map(|s| (i, s)))
                .collect();
            let pilots = seated.iter().filter(|s| s.1 == Seat::Pilot).count();
            let passengers = seated.len() - pilots;
            if pilots > 1 || passengers > 1 || (passengers == 1 && pilots == 0) {
                let (i, _) = *seated.last().expect("some");
                return Err(wrong(
                    Part::Unit(i),
                    "a plane has one pilot and at most one passenger, and a passenger needs a pilot",
                ));
            }
        }
        Ok(())
    }

    /// Enemies together outside a jungle; Friday with an unconverted missionary; a trapped
    /// unit not alone (§3.4 item 4). A stuck unit is in the tunnel, together with nobody.
    fn check_units_together(&self, units: &[UnitSetup]) -> Result<(), PositionError> {
        let line_of = |r: UnitRef| units.iter().position(|u| u.unit == r);
        let living: Vec<&Unit> = self.units.iter().filter(|u| u.alive()).collect();
        for (i, a) in living.iter().enumerate() {
            for b in &living[i + 1..] {
                let together = a.place == b.place
                    && matches!(
                        a.place,
                        Place::Land { .. } | Place::Swim(_) | Place::Aboard(_)
                    );
                if !together {
                    continue;
                }
                let Some(part) = line_of(a.reference())
                    .or_else(|| line_of(b.reference()))
                    .map(Part::Unit)
                else {
                    continue;
                };
                let jungle = matches!(a.place, Place::Land { cell, .. }
                    if self.open_kind(cell) == Some(TileKind::Jungle));
                if !jungle && !matches!(a.place, Place::Aboard(_)) && self.enemies(a.team, b.team) {
                    return Err(wrong(
                        part,
                        format!(
                            "enemy units {} and {} stand together",
                            a.reference(),
                            b.reference()
                        ),
                    ));
                }
                let pair = |x: &Unit, y: &Unit| x.is_friday() && y.is_missionary();
                if pair(a, b) || pair(b, a) {
                    return Err(wrong(
                        part,
                        "Friday and an unconverted missionary together die at once (R-FRIDAY-5)",
                    ));
                }
            }
            if let Place::Land { cell, .. } = a.place
                && a.trapped
                && self.units_on_cell(cell).count() > 1
                && let Some(i) = line_of(a.reference())
            {
                return Err(wrong(
                    Part::Unit(i),
                    "a trapped unit must be alone on its trap",
                ));
            }
        }
        Ok(())
    }

    fn place_item(&mut self, it: &ItemSetup) -> Result<(), String> {
        let board = self.board;
        let (cell, item) = (it.at.cell, it.item);
        let n = u8::try_from(it.count).map_err(|_| "too many items".to_string())?;
        if board.is_sea(cell) {
            let v = self
                .vessel_at(cell)
                .ok_or_else(|| format!("items cannot lie in the sea ({cell})"))?;
            if it.at.step.is_some() {
                return Err("`step` is only for maze cells".into());
            }
            if item.points() > 0 {
                return Err("gold cannot lie aboard a vessel: it is delivered at once".into());
            }
            return add_counted(&mut self.vessels[v].items, item, n)
                .ok_or_else(|| format!("more than 255 {} items aboard {cell}", item.word()));
        }
        let tile = *self.tile(cell).expect("land");
        if !tile.open {
            return Err(format!("items cannot lie on a fog tile ({cell})"));
        }
        // A fortress or a jungle tile may hold items (SCENARIOS §3.4 (5)): play can put them
        // there (D-43), so a position may show them.
        let k = self.maze_steps(cell);
        match (k, it.at.step) {
            (0, Some(_)) => return Err("`step` is only for maze cells".into()),
            (k, s) if k > 0 && s != Some(k) => {
                return Err(format!("items in a maze lie only on its last step ({k})"));
            }
            _ => {}
        }
        add_counted(self.items_mut(cell), item, n)
            .ok_or_else(|| format!("more than 255 {} items on {cell}", item.word()))
    }

    fn place_counters(&mut self, setup: &Setup) -> Result<(), PositionError> {
        for (i, &(team, k)) in setup.scores.iter().enumerate() {
            let most = max_score();
            if k > most {
                return Err(wrong(
                    Part::Score(i),
                    format!("a score is at most {most}: no game deals more gold than that"),
                ));
            }
            self.scores[team.index()] = k;
        }
        for (i, &(team, k)) in setup.rum.iter().enumerate() {
            // Every bottle of the largest custom pack: no stock can hold more.
            let most = 3 * self.board.land_count() as u32;
            if k > most {
                return Err(wrong(
                    Part::Rum(i),
                    format!("a rum stock is at most {most} bottles on this board"),
                ));
            }
            self.rum[team.index()] = k;
        }
        // R-WEED-1 adds the teams in play for each weed found: no game reaches more than
        // that for every land cell.
        let teams = self.settings.players.team_count() as u32;
        let most = teams * self.board.land_count() as u32;
        if setup.weed > most {
            return Err(wrong(
                Part::Weed,
                format!("the weed counter is at most {most}"),
            ));
        }
        self.weed = setup.weed;
        // R-END-6: the game ends when the counter reaches the limit, so a game in play never
        // holds more than the limit less one (without the guard, any count; the engine's
        // counter then stops at its maximum).
        let limit = u32::from(self.settings.stall_rounds) * teams;
        if limit > 0 && setup.stall >= limit {
            return Err(wrong(
                Part::Stall,
                format!(
                    "the stall guard ends the game when the counter reaches {limit} \
                     (stall_rounds × {teams} teams): a game in play has at most {}",
                    limit - 1
                ),
            ));
        }
        self.stall = setup.stall;
        Ok(())
    }

    /// SCENARIOS §3.4 item 6: a team with no unit listed keeps its pirates aboard its ship, so
    /// that ship cannot have sunk. (A side left without vessels is eliminated at the end of the
    /// first turn, R-SINK-5, not before: a position may start that way.)
    fn check_sunk_ships(&self, setup: &Setup) -> Result<(), PositionError> {
        for (i, s) in setup.ships.iter().enumerate() {
            if s.cell.is_none() && !setup.units.iter().any(|u| u.unit.team == s.team) {
                return Err(wrong(
                    Part::Ship(i),
                    format!(
                        "team {}'s pirates are aboard its ship when no unit of it is listed: \
                         list its units to sink the ship",
                        s.team
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn kind_words(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Ben => "Ben Gunn",
        UnitKind::Friday => "Friday",
        UnitKind::Missionary => "missionary",
        UnitKind::Pirate(_) => "pirate of each number",
    }
}

/// Adds `n` items, or `None` when the count would pass 255: items on a cell or aboard are
/// counted in a byte, and a setup asking for more is an error, not a count silently stopped at
/// the limit.
fn add_counted(items: &mut Items, item: Item, n: u8) -> Option<()> {
    items.count(item).checked_add(n)?;
    items.add(item, n);
    Some(())
}
