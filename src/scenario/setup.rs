//! Building and validating a scenario's starting position (SCENARIOS §3).

use std::collections::{BTreeMap, BTreeSet};

use super::lexer::{Line, Source};
use crate::engine::board::{Board, Cell, Dir, DirSet};
use crate::engine::game::{Game, team_side};
use crate::engine::item::{Item, Items};
use crate::engine::settings::{PlaneSeats, Settings};
use crate::engine::tile::{Tile, TileKind};
use crate::engine::unit::{Place, Seat, Team, Unit, UnitKind, UnitRef};

/// A statement the checker refuses, with the line it is on.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub line: usize,
    pub text: String,
    pub message: String,
}

impl LineError {
    pub fn at(line: &Line, message: impl Into<String>) -> LineError {
        LineError {
            line: line.no,
            text: line.text.clone(),
            message: message.into(),
        }
    }
}

/// Marks features whose rules come with "Rules engine II".
pub const UNSUPPORTED: &str = "not yet supported";

fn unsupported(line: &Line, what: &str) -> LineError {
    LineError::at(
        line,
        format!("{UNSUPPORTED}: {what} belongs to the expansion rules (Rules engine II)"),
    )
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    Header,
    Position,
    Step,
}

fn group_of(keyword: &str) -> Option<Group> {
    Some(match keyword {
        "board" | "players" | "set" | "seed" => Group::Header,
        "tile" | "unit" | "item" | "ship" | "boat" | "score" | "rum" | "turn" | "weed"
        | "stall" => Group::Position,
        "play" | "play-as" | "expect" => Group::Step,
        _ => return None,
    })
}

/// Reads tokens of one statement with errors that name the line.
pub struct Words<'a> {
    pub line: &'a Line,
    pub pos: usize,
}

impl<'a> Words<'a> {
    pub fn new(line: &'a Line) -> Words<'a> {
        Words { line, pos: 1 }
    }

    pub fn err(&self, message: impl Into<String>) -> LineError {
        LineError::at(self.line, message)
    }

    pub fn peek(&self) -> Option<&'a str> {
        self.line.words.get(self.pos).map(String::as_str)
    }

    pub fn next(&mut self, what: &str) -> Result<&'a str, LineError> {
        let w = self
            .peek()
            .ok_or_else(|| self.err(format!("{what} expected at the end of the line")))?;
        self.pos += 1;
        Ok(w)
    }

    pub fn eat(&mut self, word: &str) -> bool {
        if self.peek() == Some(word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, word: &str) -> Result<(), LineError> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.err(format!("`{word}` expected")))
        }
    }

    pub fn done(&self) -> Result<(), LineError> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(self.err(format!("unexpected `{w}`"))),
        }
    }

    pub fn rest(&self) -> &'a [String] {
        &self.line.words[self.pos.min(self.line.words.len())..]
    }

    pub fn count(&mut self) -> Result<u32, LineError> {
        let w = self.next("a count")?;
        w.parse()
            .map_err(|_| self.err(format!("`{w}` is not a count")))
    }

    pub fn cell(&mut self, board: Board) -> Result<Cell, LineError> {
        let w = self.next("a cell")?;
        board.parse_cell(w).ok_or_else(|| {
            self.err(format!(
                "`{w}` is not a cell of this {}×{} board",
                board.size(),
                board.size()
            ))
        })
    }

    pub fn team(&mut self, teams: u8) -> Result<Team, LineError> {
        let w = self.next("a team")?;
        match w.parse::<u8>() {
            Ok(t) if (1..=teams).contains(&t) => Ok(t),
            _ => Err(self.err(format!("`{w}` is not a team of this game (1–{teams})"))),
        }
    }

    pub fn unit_ref(&mut self, teams: u8) -> Result<UnitRef, LineError> {
        let w = self.next("a unit reference such as 1.2")?;
        let bad = || self.err(format!("`{w}` is not a unit reference such as 1.2 or 2.f"));
        let (t, id) = w.split_once('.').ok_or_else(bad)?;
        let team: u8 = t.parse().map_err(|_| bad())?;
        if !(1..=teams).contains(&team) {
            return Err(self.err(format!("team {team} does not take part")));
        }
        let kind = UnitKind::parse(id).ok_or_else(bad)?;
        Ok(UnitRef { team, kind })
    }

    pub fn item(&mut self) -> Result<Item, LineError> {
        let w = self.next("an item word")?;
        Item::parse(w).ok_or_else(|| {
            self.err(format!(
                "`{w}` is not an item (coin, bar, ball, boat, cart)"
            ))
        })
    }

    /// `CELL [step K]`.
    pub fn pos(&mut self, board: Board) -> Result<(Cell, Option<u8>), LineError> {
        let cell = self.cell(board)?;
        let step = if self.eat("step") {
            let k = self.count()?;
            Some(u8::try_from(k).map_err(|_| self.err("step out of range"))?)
        } else {
            None
        };
        Ok((cell, step))
    }

    /// A tile kind in scenario form (`arrow n+e`, `cannon s`, `maze3`…).
    pub fn tile_kind(&mut self) -> Result<TileKind, LineError> {
        let w = self.next("a tile kind")?;
        match w {
            "arrow" => {
                let dirs = self.next("arrow directions")?;
                let mut set = DirSet::default();
                for d in dirs.split('+') {
                    let dir = Dir::parse(d)
                        .ok_or_else(|| self.err(format!("`{d}` is not a direction")))?;
                    if set.contains(dir) {
                        return Err(self.err(format!("direction `{d}` given twice")));
                    }
                    set = DirSet(set.0 | DirSet::of(&[dir]).0);
                }
                Ok(TileKind::Arrow(set))
            }
            "cannon" => {
                let d = self.next("a cannon direction")?;
                match Dir::parse(d) {
                    Some(dir @ (Dir::N | Dir::E | Dir::S | Dir::W)) => Ok(TileKind::Cannon(dir)),
                    _ => Err(self.err(format!("`{d}` is not a cannon direction (n, e, s, w)"))),
                }
            }
            "cannon1" | "arrow1" | "arrow2" | "arrow3" | "arrow4" | "arrow5" | "arrow6"
            | "arrow7" => {
                Err(self.err(format!("`{w}`: write arrows by their exits (`arrow n+e`)")))
            }
            _ => TileKind::parse_pack_id(w)
                .filter(|k| !matches!(k, TileKind::Cannon(_)))
                .ok_or_else(|| self.err(format!("`{w}` is not a tile kind"))),
        }
    }
}

/// The highest score a scenario may set: the most gold any game can deal, every land cell of
/// the largest board a chest of 5 coins (R-PACK-6 lets a custom pack be all chests). A higher
/// score is no position of any game, and refusing it keeps the engine's counters far from
/// their limits.
pub fn max_score() -> u32 {
    let largest = Board::new(13).expect("13 is a board size");
    largest.land_count() as u32 * TileKind::Chest(5).hidden_gold()
}

fn parse_seed(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

struct UnitLine<'a> {
    line: &'a Line,
    r: UnitRef,
    pos: Option<(Cell, Option<u8>)>,
    flags: Vec<&'a str>,
}

/// Builds the scenario's game (validated, start-of-turn processing not yet run) and returns
/// it with the index of its first step statement.
pub fn build(src: &Source) -> Result<(Game, usize), LineError> {
    if let Some((line, text, message)) = &src.error {
        return Err(LineError {
            line: *line,
            text: text.clone(),
            message: message.clone(),
        });
    }
    // Group order (S-LAY-2).
    let mut last = Group::Header;
    let mut first_step = src.lines.len();
    for (i, line) in src.lines.iter().enumerate() {
        let g = group_of(line.keyword()).ok_or_else(|| {
            LineError::at(line, format!("unknown statement `{}`", line.keyword()))
        })?;
        if g < last {
            return Err(LineError::at(
                line,
                "statement out of order: headers, then the position, then steps",
            ));
        }
        if g == Group::Step && first_step == src.lines.len() {
            first_step = i;
        }
        last = g;
    }
    let mut settings = Settings::default();
    let mut seed = None;
    let mut seen = BTreeSet::new();
    for line in &src.lines[..first_step] {
        let mut w = Words::new(line);
        let (id, value) = match line.keyword() {
            "board" => (
                "board_size".to_string(),
                w.next("a board size")?.to_string(),
            ),
            "players" => (
                "players".to_string(),
                w.next("a players value")?.to_string(),
            ),
            "set" => {
                let id = w.next("a setting id")?.to_string();
                w.expect("=")?;
                let value: String = line
                    .text
                    .split_once('=')
                    .map(|(_, v)| v.chars().filter(|c| !c.is_whitespace()).collect())
                    .unwrap_or_default();
                if value.is_empty() {
                    return Err(w.err("a value expected after `=`"));
                }
                w.pos = line.words.len();
                (id, value.to_ascii_lowercase())
            }
            "seed" => {
                let text = w.next("a seed")?;
                w.done()?;
                if !seen.insert("seed".to_string()) {
                    return Err(w.err("`seed` given twice"));
                }
                let value =
                    parse_seed(text).ok_or_else(|| w.err(format!("`{text}` is not a seed")))?;
                seed = Some((value, line));
                continue;
            }
            _ => break,
        };
        w.done()?;
        if !seen.insert(id.clone()) {
            return Err(w.err(format!("`{id}` given twice")));
        }
        settings
            .set(&id, &value)
            .map_err(|e| w.err(e.to_string()))?;
    }
    let position: Vec<&Line> = src.lines[..first_step]
        .iter()
        .filter(|l| group_of(l.keyword()) == Some(Group::Position))
        .collect();
    let game = build_position(settings, seed, &position)?;
    Ok((game, first_step))
}

/// `seed`: the seed and its line, if the scenario deals a map.
fn build_position(
    settings: Settings,
    seed: Option<(u64, &Line)>,
    lines: &[&Line],
) -> Result<Game, LineError> {
    let mut game = Game::blank(settings);
    if let Some((s, line)) = seed {
        game.deal(s)
            .map_err(|e| LineError::at(line, e.to_string()))?;
    }
    let board = game.board;
    let teams = game.settings.players.team_count();
    let mut unit_lines: Vec<UnitLine> = Vec::new();
    let mut item_lines: Vec<(&Line, Cell, Option<u8>, Item, u32)> = Vec::new();
    let mut ships_set: BTreeMap<Team, &Line> = BTreeMap::new();
    let mut turn_line: Option<(&Line, Team)> = None;
    for &line in lines {
        let mut w = Words::new(line);
        match line.keyword() {
            "tile" => {
                let mut cells = vec![w.cell(board)?];
                while w.eat(",") {
                    cells.push(w.cell(board)?);
                }
                let fog = w.eat("fog");
                let kind = w.tile_kind()?;
                let used = w.eat("used");
                w.done()?;
                if kind.is_expansion() {
                    return Err(unsupported(line, &format!("the `{kind}` tile")));
                }
                if used && (fog || !(kind.has_trigger() || kind == TileKind::Plane)) {
                    return Err(w.err("`used` only applies to open first-entry tiles and planes"));
                }
                for cell in cells {
                    if !board.is_land(cell) {
                        return Err(w.err(format!("{cell} is a sea cell: tiles lie on land")));
                    }
                    let mut tile = if fog {
                        Tile::fog(kind, 0)
                    } else {
                        Tile::open(kind)
                    };
                    // An open tile that acts on opening has already acted (SCENARIOS §3.2).
                    tile.used = used || (!fog && kind.acts_on_opening());
                    let i = board.index(cell);
                    game.tiles[i] = Some(tile);
                }
            }
            "unit" => {
                let r = w.unit_ref(teams)?;
                if !r.kind.is_pirate() {
                    return Err(unsupported(line, "Ben Gunn, Friday and the missionary"));
                }
                let pos = if w.eat("dead") {
                    None
                } else {
                    Some(w.pos(board)?)
                };
                let flags: Vec<&str> = w.rest().iter().map(String::as_str).collect();
                for f in &flags {
                    match *f {
                        "drunk" | "trapped" | "pilot" | "passenger" => {}
                        "stuck" | "converted" => {
                            return Err(unsupported(line, &format!("the `{f}` state")));
                        }
                        _ => return Err(w.err(format!("`{f}` is not a unit flag"))),
                    }
                    if pos.is_none() {
                        return Err(w.err("a dead unit has no flags"));
                    }
                }
                if unit_lines.iter().any(|u| u.r == r) {
                    return Err(w.err(format!("unit {r} is given twice")));
                }
                unit_lines.push(UnitLine {
                    line,
                    r,
                    pos,
                    flags,
                });
            }
            "item" => {
                let (cell, step) = w.pos(board)?;
                let item = w.item()?;
                let count = if w.peek().is_some() { w.count()? } else { 1 };
                w.done()?;
                if matches!(item, Item::Ball | Item::Boat | Item::Cart) {
                    return Err(unsupported(line, &format!("the {} item", item.word())));
                }
                item_lines.push((line, cell, step, item, count));
            }
            "ship" => {
                let team = w.team(teams)?;
                if w.eat("sunk") {
                    return Err(unsupported(line, "sinking ships"));
                }
                let cell = w.cell(board)?;
                let hits = if w.eat("hits") { w.count()? } else { 0 };
                w.done()?;
                if ships_set.insert(team, line).is_some() {
                    return Err(w.err(format!("ship {team} is placed twice")));
                }
                let side = team_side(game.settings.players, team);
                if !board.is_slot_of(cell, side) {
                    return Err(w.err(format!("{cell} is not a ship slot of team {team}'s side")));
                }
                if hits > 0 {
                    return Err(unsupported(line, "hits on ships"));
                }
                let v = game.main_ship(team).expect("every team has a ship");
                game.vessels[v].cell = cell;
            }
            "boat" => return Err(unsupported(line, "boats")),
            "score" | "rum" => {
                let team = w.team(teams)?;
                w.expect("=")?;
                let k = w.count()?;
                w.done()?;
                if line.keyword() == "score" {
                    let most = max_score();
                    if k > most {
                        return Err(w.err(format!(
                            "a score is at most {most}: no game deals more gold than that"
                        )));
                    }
                    game.scores[team as usize - 1] = k;
                } else if k > 0 {
                    return Err(unsupported(line, "rum stocks"));
                }
            }
            "turn" => {
                let team = w.team(teams)?;
                w.done()?;
                turn_line = Some((line, team));
            }
            "weed" => {
                let k = w.count()?;
                w.done()?;
                if k > 0 {
                    return Err(unsupported(line, "the shaitan weed"));
                }
            }
            "stall" => {
                let k = w.count()?;
                w.done()?;
                // R-END-6: the game ends when the counter reaches the limit, so a game in
                // play never holds more than the limit less one (without the guard, any
                // count; the engine's counter then stops at its maximum).
                let limit = u32::from(game.settings.stall_rounds) * u32::from(teams);
                if limit > 0 && k >= limit {
                    return Err(w.err(format!(
                        "the stall guard ends the game when the counter reaches {limit} \
                         (stall_rounds × {teams} teams): a game in play has at most {}",
                        limit - 1
                    )));
                }
                game.stall = k;
            }
            _ => unreachable!("grouped before"),
        }
    }
    // Two vessels on one cell (§3.4 item 2).
    for (team, line) in &ships_set {
        let v = game.main_ship(*team).expect("placed");
        let cell = game.vessels[v].cell;
        if game
            .vessels
            .iter()
            .filter(|o| o.cell == cell && !o.sunk)
            .count()
            > 1
        {
            return Err(LineError::at(line, format!("two vessels on {cell}")));
        }
    }
    place_units(&mut game, &unit_lines)?;
    for (line, cell, step, item, count) in item_lines {
        place_items(&mut game, line, cell, step, item, count)?;
    }
    if let Some((_, team)) = turn_line {
        game.turn = team;
    }
    game.dealt_gold = game.gold_in_play();
    Ok(game)
}

fn place_units(game: &mut Game, lines: &[UnitLine]) -> Result<(), LineError> {
    let board = game.board;
    let listed: BTreeSet<Team> = lines.iter().map(|u| u.r.team).collect();
    game.units.retain(|u| !listed.contains(&u.team));
    for &team in &listed {
        for n in 1..=3 {
            if !lines
                .iter()
                .any(|u| u.r.team == team && u.r.kind == UnitKind::Pirate(n))
            {
                game.units
                    .push(Unit::new(team, UnitKind::Pirate(n), Place::Dead));
            }
        }
    }
    for ul in lines {
        let err = |m: String| LineError::at(ul.line, m);
        let Some((cell, step)) = ul.pos else {
            game.units
                .push(Unit::new(ul.r.team, ul.r.kind, Place::Dead));
            continue;
        };
        let place = if board.is_sea(cell) {
            if step.is_some() {
                return Err(err("`step` is only for maze cells".into()));
            }
            match game.vessel_at(cell) {
                Some(v) => {
                    if game.enemies(game.vessels[v].owner, ul.r.team) {
                        return Err(err(format!(
                            "unit {} aboard a vessel of another side",
                            ul.r
                        )));
                    }
                    Place::Aboard(v)
                }
                None => Place::Swim(cell),
            }
        } else {
            let tile = game.tile(cell).expect("land");
            if !tile.open {
                return Err(err(format!("unit on a fog tile ({cell})")));
            }
            let kind = tile.effective();
            if !kind.is_stop() && !matches!(kind, TileKind::Cannon(_)) {
                return Err(err(format!(
                    "a unit cannot stand on the {} tile",
                    tile.kind
                )));
            }
            let k = game.maze_steps(cell);
            match (k, step) {
                (0, Some(_)) => return Err(err("`step` is only for maze cells".into())),
                (k, None) if k > 0 => return Err(err(format!("{cell} is a maze: give the step"))),
                (k, Some(s)) if s == 0 || s > k => {
                    return Err(err(format!("the maze on {cell} has steps 1–{k}")));
                }
                _ => {}
            }
            Place::Land {
                cell,
                step: step.unwrap_or(0),
            }
        };
        let mut unit = Unit::new(ul.r.team, ul.r.kind, place);
        for f in &ul.flags {
            match *f {
                "drunk" => unit.drunk = true,
                "trapped" => {
                    if !matches!(place, Place::Land { .. })
                        || game.open_kind(cell) != Some(TileKind::Trap)
                    {
                        return Err(err("`trapped` needs a trap cell".into()));
                    }
                    unit.trapped = true;
                }
                "pilot" | "passenger" => {
                    if !matches!(place, Place::Land { .. })
                        || game.open_kind(cell) != Some(TileKind::Plane)
                    {
                        return Err(err(format!("`{f}` needs an unspent open plane")));
                    }
                    let seat = if *f == "pilot" {
                        Seat::Pilot
                    } else {
                        Seat::Passenger
                    };
                    if seat == Seat::Passenger && game.settings.plane_seats == PlaneSeats::One {
                        return Err(err("the plane has one seat (`plane_seats = one`)".into()));
                    }
                    unit.seat = Some(seat);
                }
                _ => unreachable!("checked while reading"),
            }
        }
        game.units.push(unit);
    }
    // Seats: one pilot at most; a passenger needs a pilot.
    for cell in board.land_cells() {
        let seats: Vec<(Seat, &UnitLine)> = lines
            .iter()
            .filter(|ul| ul.pos.map(|p| p.0) == Some(cell))
            .filter_map(|ul| {
                ul.flags.iter().find_map(|f| match *f {
                    "pilot" => Some((Seat::Pilot, ul)),
                    "passenger" => Some((Seat::Passenger, ul)),
                    _ => None,
                })
            })
            .collect();
        let pilots = seats.iter().filter(|s| s.0 == Seat::Pilot).count();
        let passengers = seats.iter().filter(|s| s.0 == Seat::Passenger).count();
        if pilots > 1 || passengers > 1 || (passengers == 1 && pilots == 0) {
            let ul = seats.last().expect("non-empty").1;
            return Err(LineError::at(
                ul.line,
                "a plane has one pilot and at most one passenger, and a passenger needs a pilot",
            ));
        }
    }
    // Enemies together; a trapped unit alone (§3.4 item 4).
    let units = game.units.clone();
    for (i, a) in units.iter().enumerate() {
        if !a.alive() {
            continue;
        }
        let line = lines
            .iter()
            .find(|ul| ul.r == a.reference())
            .map(|ul| ul.line);
        for b in units.iter().skip(i + 1) {
            let together =
                a.place == b.place && matches!(a.place, Place::Land { .. } | Place::Swim(_));
            let b_line = || {
                lines
                    .iter()
                    .find(|ul| ul.r == b.reference())
                    .map(|ul| ul.line)
            };
            if together
                && game.enemies(a.team, b.team)
                && let Some(line) = line.or_else(b_line)
            {
                return Err(LineError::at(
                    line,
                    format!(
                        "enemy units {} and {} stand together",
                        a.reference(),
                        b.reference()
                    ),
                ));
            }
        }
        if let Place::Land { cell, .. } = a.place
            && a.trapped
            && game.units_on_cell(cell).count() > 1
            && let Some(line) = line
        {
            return Err(LineError::at(
                line,
                "a trapped unit must be alone on its trap",
            ));
        }
    }
    Ok(())
}

fn place_items(
    game: &mut Game,
    line: &Line,
    cell: Cell,
    step: Option<u8>,
    item: Item,
    count: u32,
) -> Result<(), LineError> {
    let err = |m: String| LineError::at(line, m);
    let board = game.board;
    let n = u8::try_from(count).map_err(|_| err("too many items".into()))?;
    if board.is_sea(cell) {
        let v = game
            .vessel_at(cell)
            .ok_or_else(|| err(format!("items cannot lie in the sea ({cell})")))?;
        if item.points() > 0 {
            return Err(err(
                "gold cannot lie aboard a vessel: it is delivered at once".into(),
            ));
        }
        return add_counted(&mut game.vessels[v].items, item, n)
            .ok_or_else(|| err(format!("more than 255 {} items aboard {cell}", item.word())));
    }
    let tile = *game.tile(cell).expect("land");
    if !tile.open {
        return Err(err(format!("items cannot lie on a fog tile ({cell})")));
    }
    let kind = tile.effective();
    if kind.is_fortress() || kind == TileKind::Jungle {
        return Err(err(format!("items cannot lie on the {} tile", tile.kind)));
    }
    let k = game.maze_steps(cell);
    match (k, step) {
        (0, Some(_)) => return Err(err("`step` is only for maze cells".into())),
        (k, s) if k > 0 && s != Some(k) => {
            return Err(err(format!(
                "items in a maze lie only on its last step ({k})"
            )));
        }
        _ => {}
    }
    add_counted(game.items_mut(cell), item, n)
        .ok_or_else(|| err(format!("more than 255 {} items on {cell}", item.word())))
}

/// Adds `n` items, or `None` when the count would pass 255: items on a cell or aboard are
/// counted in a byte, and a scenario asking for more is an error, not a count silently stopped
/// at the limit.
fn add_counted(items: &mut Items, item: Item, n: u8) -> Option<()> {
    items.count(item).checked_add(n)?;
    items.add(item, n);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::lexer;
    use super::*;

    fn built(text: &str) -> Result<Game, LineError> {
        let src = lexer::split("t.scn", text).remove(0);
        build(&src).map(|(game, _)| game)
    }

    fn refused(text: &str, line: usize, says: &str) {
        match built(text) {
            Err(e) => {
                assert_eq!(e.line, line, "{e:?}");
                assert!(e.message.contains(says), "{e:?}");
            }
            Ok(_) => panic!("accepted:\n{text}"),
        }
    }

    /// `score 1 = 4294967295` plus a coin carried home used to read 0.
    #[test]
    fn a_score_no_game_can_reach_is_refused() {
        assert_eq!(max_score(), 585);
        refused("board 9\nscore 1 = 4294967295\n", 2, "at most 585");
        refused("score 2 = 586\n", 1, "at most 585");
        assert_eq!(built("score 2 = 585\n").unwrap().score(2), 585);
    }

    /// `stall 4294967295` used to wrap to 0 at the end of the first turn, and the game never
    /// ended; the guard ends a game when the counter reaches its limit (R-END-6), so a game in
    /// play holds at most the limit less one.
    #[test]
    fn a_stall_count_the_guard_would_have_ended_is_refused() {
        refused("stall 4294967295\n", 1, "reaches 100");
        refused("stall 100\n", 1, "at most 99");
        assert_eq!(built("stall 99\n").unwrap().stall(), 99);
        refused("players 3\nset stall_rounds = 2\nstall 6\n", 3, "at most 5");
        // Without the guard any count is a position; the counter stops at its limit.
        let text = "set stall_rounds = 0\ntile d10 fog chest1\nunit 1.1 e5\nstall 4294967295\n";
        let mut game = built(text).unwrap();
        game.start(&mut Vec::new());
        game.play_text("1 e6").unwrap();
        assert_eq!(game.stall(), u32::MAX);
        assert!(!game.is_over());
    }

    /// Item counts are bytes: two lines for one cell used to stop silently at 255.
    #[test]
    fn items_past_a_byte_are_refused() {
        let two = |n: u32| format!("item e5 coin 200\nitem e5 coin {n}\n");
        refused(&two(56), 2, "more than 255 coin items on e5");
        let game = built(&two(55)).unwrap();
        assert_eq!(
            game.items_at(Cell::parse("e5").unwrap()).count(Item::Coin),
            255
        );
        refused("item e5 bar 256\n", 1, "too many items");
    }

    /// The engine's own counters saturate where a state (a stored snapshot, say) starts at
    /// the limit: a delivery never wraps a score round to nothing.
    #[test]
    fn a_score_at_the_limit_stays_there() {
        let text = "tile d10 fog chest1\nunit 1.1 g2\nitem g2 coin\n";
        let mut game = built(text).unwrap();
        game.scores[0] = u32::MAX;
        game.start(&mut Vec::new());
        game.play_text("1 g1 coin").unwrap();
        assert_eq!(game.score(1), u32::MAX);
        assert_eq!(game.side_score(1), u32::MAX);
    }
}
