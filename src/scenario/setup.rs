//! Building and validating a scenario's starting position (SCENARIOS §3).

use std::collections::BTreeSet;

use super::lexer::{Line, Source};
use crate::engine::board::{Board, Cell, Dir, DirSet};
use crate::engine::game::Game;
use crate::engine::item::Item;
use crate::engine::settings::Settings;
use crate::engine::setup::{
    At, BoatSetup, ItemSetup, Part, Setup, ShipSetup, TileSetup, UnitFlags, UnitSetup,
};
use crate::engine::tile::{Tile, TileKind};
use crate::engine::unit::{Seat, Team, UnitKind, UnitRef};

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
        // Digits only (§9 `count = digits`): Rust's own parsing would take `+3` as well.
        digits(w)
            .then(|| w.parse().ok())
            .flatten()
            .ok_or_else(|| self.err(format!("`{w}` is not a count")))
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
        match team_number(w) {
            Some(t) if t <= teams => Ok(Team::of(t)),
            _ => Err(self.err(format!("`{w}` is not a team of this game (1–{teams})"))),
        }
    }

    pub fn unit_ref(&mut self, teams: u8) -> Result<UnitRef, LineError> {
        let w = self.next("a unit reference such as 1.2")?;
        let bad = || self.err(format!("`{w}` is not a unit reference such as 1.2 or 2.f"));
        let (t, id) = w.split_once('.').ok_or_else(bad)?;
        let team = team_number(t).ok_or_else(bad)?;
        if !(1..=teams).contains(&team) {
            return Err(self.err(format!("team {team} does not take part")));
        }
        let kind = UnitKind::parse(id).ok_or_else(bad)?;
        Ok(UnitRef {
            team: Team::of(team),
            kind,
        })
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
        // A maze step is one digit, 1 to 5 (§9 `digit`): a maze has five steps at most.
        let step = if self.eat("step") {
            let w = self.next("a maze step")?;
            match w.as_bytes() {
                [d @ b'1'..=b'5'] => Some(d - b'0'),
                _ => return Err(self.err(format!("`{w}` is not a maze step (1–5)"))),
            }
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

/// One or more of 0–9 and nothing else (§9 `digits`).
fn digits(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
}

/// A team as the grammar writes it: `1` to `4`, one digit (§9 `team`).
fn team_number(w: &str) -> Option<u8> {
    match w.as_bytes() {
        [d @ b'1'..=b'4'] => Some(d - b'0'),
        _ => None,
    }
}

/// `digits` or `0x` and hex digits (§9), below 2⁶⁴.
fn parse_seed(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16).ok()
        }
        Some(_) => None,
        None => digits(text).then(|| text.parse().ok()).flatten(),
    }
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
            "board" => {
                // §9 `size`: the five sizes as written, so `09` or `+9` is no board size.
                let size = w.next("a board size")?;
                if !matches!(size, "5" | "7" | "9" | "11" | "13") {
                    return Err(w.err(format!("`{size}` is not a board size (5, 7, 9, 11, 13)")));
                }
                ("board_size".to_string(), size.to_string())
            }
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

/// The lines each part of a [`Setup`] came from, to name a line when the engine refuses a
/// part (`Game::from_setup`).
#[derive(Default)]
struct Lines<'a> {
    tiles: Vec<&'a Line>,
    units: Vec<&'a Line>,
    ships: Vec<&'a Line>,
    boats: Vec<&'a Line>,
    items: Vec<&'a Line>,
    scores: Vec<&'a Line>,
    rum: Vec<&'a Line>,
    seed: Option<&'a Line>,
    turn: Option<&'a Line>,
    weed: Option<&'a Line>,
    stall: Option<&'a Line>,
}

impl<'a> Lines<'a> {
    fn of(&self, part: Part) -> Option<&'a Line> {
        match part {
            Part::Settings => None,
            Part::Seed => self.seed,
            Part::Tile(i) => self.tiles.get(i).copied(),
            Part::Unit(i) => self.units.get(i).copied(),
            Part::Ship(i) => self.ships.get(i).copied(),
            Part::Boat(i) => self.boats.get(i).copied(),
            Part::Item(i) => self.items.get(i).copied(),
            Part::Score(i) => self.scores.get(i).copied(),
            Part::Rum(i) => self.rum.get(i).copied(),
            Part::Turn => self.turn,
            Part::Weed => self.weed,
            Part::Stall => self.stall,
        }
    }
}

/// `seed`: the seed and its line, if the scenario deals a map.
fn build_position(
    settings: Settings,
    seed: Option<(u64, &Line)>,
    lines: &[&Line],
) -> Result<Game, LineError> {
    let board = settings.board();
    let teams = settings.players.team_count();
    let mut setup = Setup {
        settings,
        seed: seed.map(|(s, _)| s),
        ..Setup::default()
    };
    let mut from = Lines {
        seed: seed.map(|(_, l)| l),
        ..Lines::default()
    };
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
                if used && (fog || !(kind.has_trigger() || kind == TileKind::Plane)) {
                    return Err(w.err("`used` only applies to open first-entry tiles and planes"));
                }
                for cell in cells {
                    let mut tile = if fog {
                        Tile::fog(kind, 0)
                    } else {
                        Tile::open(kind)
                    };
                    // An open tile that acts on opening has already acted (SCENARIOS §3.2).
                    tile.used = used || (!fog && kind.acts_on_opening());
                    setup.tiles.push(TileSetup { cell, tile });
                    from.tiles.push(line);
                }
            }
            "unit" => {
                let unit = w.unit_ref(teams)?;
                let at = if w.eat("dead") {
                    None
                } else {
                    let (cell, step) = w.pos(board)?;
                    Some(At { cell, step })
                };
                let mut flags = UnitFlags::default();
                for f in w.rest() {
                    if at.is_none() {
                        return Err(w.err("a dead unit has no flags"));
                    }
                    let seat = |s| {
                        if flags.seat.is_some() {
                            Err(w.err("a unit takes one seat"))
                        } else {
                            Ok(Some(s))
                        }
                    };
                    match f.as_str() {
                        "drunk" => flags.drunk = true,
                        "trapped" => flags.trapped = true,
                        "stuck" => flags.stuck = true,
                        "converted" => flags.converted = true,
                        "pilot" => flags.seat = seat(Seat::Pilot)?,
                        "passenger" => flags.seat = seat(Seat::Passenger)?,
                        _ => return Err(w.err(format!("`{f}` is not a unit flag"))),
                    }
                }
                setup.units.push(UnitSetup { unit, at, flags });
                from.units.push(line);
            }
            "item" => {
                let (cell, step) = w.pos(board)?;
                let item = w.item()?;
                let count = if w.peek().is_some() { w.count()? } else { 1 };
                w.done()?;
                setup.items.push(ItemSetup {
                    at: At { cell, step },
                    item,
                    count,
                });
                from.items.push(line);
            }
            "ship" => {
                let team = w.team(teams)?;
                let (cell, hits) = if w.eat("sunk") {
                    (None, 0)
                } else {
                    let cell = w.cell(board)?;
                    let hits = if w.eat("hits") { w.count()? } else { 0 };
                    (Some(cell), hits)
                };
                w.done()?;
                setup.ships.push(ShipSetup { team, cell, hits });
                from.ships.push(line);
            }
            "boat" => {
                let team = w.team(teams)?;
                let cell = w.cell(board)?;
                w.done()?;
                setup.boats.push(BoatSetup { team, cell });
                from.boats.push(line);
            }
            "score" | "rum" => {
                let team = w.team(teams)?;
                w.expect("=")?;
                let k = w.count()?;
                w.done()?;
                if line.keyword() == "score" {
                    setup.scores.push((team, k));
                    from.scores.push(line);
                } else {
                    setup.rum.push((team, k));
                    from.rum.push(line);
                }
            }
            "turn" => {
                let team = w.team(teams)?;
                w.done()?;
                setup.turn = Some(team);
                from.turn = Some(line);
            }
            "weed" | "stall" => {
                let k = w.count()?;
                w.done()?;
                if line.keyword() == "weed" {
                    setup.weed = k;
                    from.weed = Some(line);
                } else {
                    setup.stall = k;
                    from.stall = Some(line);
                }
            }
            _ => unreachable!("grouped before"),
        }
    }
    Game::from_setup(&setup).map_err(|e| match from.of(e.part) {
        Some(line) => LineError::at(line, e.message),
        None => LineError {
            line: 0,
            text: String::new(),
            message: e.message,
        },
    })
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
        assert_eq!(crate::engine::setup::max_score(), 585);
        refused("board 9\nscore 1 = 4294967295\n", 2, "at most 585");
        refused("score 2 = 586\n", 1, "at most 585");
        assert_eq!(built("score 2 = 585\n").unwrap().score(Team::of(2)), 585);
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
}
