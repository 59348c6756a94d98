//! `expect` statements (SCENARIOS §6): parsing them and checking them against a game.

use super::lexer::Line;
use super::setup::{LineError, Words};
use crate::engine::action::{Action, ChoiceKind};
use crate::engine::board::{Board, Cell};
use crate::engine::error::ErrorKind;
use crate::engine::event::EndReason;
use crate::engine::game::Game;
use crate::engine::item::Items;
use crate::engine::tile::TileKind;
use crate::engine::unit::{Place, Seat, Team, Unit, UnitRef};

#[derive(Clone, Debug, PartialEq)]
pub enum UnitCheck {
    At(Cell, Option<u8>),
    Tunnel,
    State(UnitState),
    Dead,
    Absent,
    Carries(Items),
}

#[derive(Clone, Debug, PartialEq)]
pub enum TileCheck {
    Fog,
    Open,
    Used,
    Unused,
    Kind { kind: TileKind, open: bool },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LegalMode {
    Includes,
    Excludes,
    Exactly,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    Unit(UnitRef, UnitCheck),
    Items(Cell, Option<u8>, Items),
    Score(Team, u32),
    SideScore(Team, u32),
    Gold(u32),
    Rum(Team, u32),
    Tile(Cell, TileCheck),
    ShipAt(Team, Cell),
    ShipHits(Team, u32),
    ShipSunk(Team),
    BoatAt(Team, Cell),
    Boats(Team, u32),
    Turn(Team),
    Controller(Team),
    Weed(u32),
    Pending(ChoiceKind),
    NoPending,
    Legal {
        filter: Option<String>,
        mode: LegalMode,
        actions: Vec<String>,
    },
    LegalCount(Option<String>, u32),
    Fatal(bool, String),
    Reject(String, Option<ErrorKind>),
    Winner(Team, Option<EndReason>),
    Draw(Vec<Team>, Option<EndReason>),
    NotOver,
    Eliminated(Team),
}

/// A state an `expect unit` line can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitState {
    Alive,
    Drunk,
    Sober,
    Trapped,
    Stuck,
    Free,
    Swimming,
    Aboard,
    Pilot,
    Passenger,
    Unseated,
    Converted,
}

impl UnitState {
    /// Every state with its word: the one table both reading and printing use.
    const WORDS: [(&'static str, UnitState); 12] = [
        ("alive", UnitState::Alive),
        ("drunk", UnitState::Drunk),
        ("sober", UnitState::Sober),
        ("trapped", UnitState::Trapped),
        ("stuck", UnitState::Stuck),
        ("free", UnitState::Free),
        ("swimming", UnitState::Swimming),
        ("aboard", UnitState::Aboard),
        ("pilot", UnitState::Pilot),
        ("passenger", UnitState::Passenger),
        ("unseated", UnitState::Unseated),
        ("converted", UnitState::Converted),
    ];

    fn parse(word: &str) -> Option<UnitState> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, s)| *s)
    }

    fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |(w, _)| w)
    }

    /// Whether the living unit `u` is in this state.
    fn holds(self, u: &Unit) -> bool {
        match self {
            UnitState::Alive => true,
            UnitState::Drunk => u.drunk,
            UnitState::Sober => !u.drunk,
            UnitState::Trapped => u.trapped,
            UnitState::Stuck => u.stuck(),
            UnitState::Free => !u.trapped && !u.stuck(),
            UnitState::Swimming => matches!(u.place, Place::Swim(_)),
            UnitState::Aboard => matches!(u.place, Place::Aboard(_)),
            UnitState::Pilot => u.seat == Some(Seat::Pilot),
            UnitState::Passenger => u.seat == Some(Seat::Passenger),
            UnitState::Unseated => u.seat.is_none(),
            UnitState::Converted => u.converted,
        }
    }
}

fn item_list(w: &mut Words) -> Result<Items, LineError> {
    let mut items = Items::NONE;
    loop {
        let item = w.item()?;
        let n = match w.peek() {
            Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => w.count()?,
            _ => 1,
        };
        // Items are counted in a byte: a larger count is no state at all, and clipped to 255
        // it would pass against 255 items.
        let n = u8::try_from(n)
            .ok()
            .filter(|n| items.count(item).checked_add(*n).is_some())
            .ok_or_else(|| {
                w.err(format!(
                    "at most 255 {} items lie in one place",
                    item.word()
                ))
            })?;
        items.add(item, n);
        if !w.eat(",") {
            break;
        }
    }
    Ok(items)
}

fn reason(w: &mut Words) -> Result<Option<EndReason>, LineError> {
    match w.peek() {
        None => Ok(None),
        Some(r) => {
            let reason =
                EndReason::parse(r).ok_or_else(|| w.err(format!("`{r}` is not an end reason")))?;
            w.pos += 1;
            Ok(Some(reason))
        }
    }
}

/// Parses an `expect` statement.
pub fn parse(line: &Line, board: Board, teams: u8) -> Result<Expectation, LineError> {
    let mut w = Words::new(line);
    let what = w.next("what to expect")?;
    let e = match what {
        "unit" => {
            let r = w.unit_ref(teams)?;
            let check = match w.next("at, a state, dead, absent or carries")? {
                "at" => {
                    if w.eat("tunnel") {
                        UnitCheck::Tunnel
                    } else {
                        let (cell, step) = w.pos(board)?;
                        UnitCheck::At(cell, step)
                    }
                }
                "dead" => UnitCheck::Dead,
                "absent" => UnitCheck::Absent,
                "carries" => {
                    if w.eat("nothing") {
                        UnitCheck::Carries(Items::NONE)
                    } else {
                        let mut items = Items::NONE;
                        while w.peek().is_some() {
                            items.add(w.item()?, 1);
                        }
                        if items.is_empty() {
                            return Err(w.err("item words or `nothing` expected"));
                        }
                        UnitCheck::Carries(items)
                    }
                }
                s => match UnitState::parse(s) {
                    Some(state) => UnitCheck::State(state),
                    None => return Err(w.err(format!("`{s}` is not a unit state"))),
                },
            };
            Expectation::Unit(r, check)
        }
        "items" => {
            let (cell, step) = w.pos(board)?;
            if w.eat("none") {
                Expectation::Items(cell, step, Items::NONE)
            } else {
                w.expect("=")?;
                Expectation::Items(cell, step, item_list(&mut w)?)
            }
        }
        "score" | "side-score" | "rum" => {
            let team = w.team(teams)?;
            w.expect("=")?;
            let k = w.count()?;
            match what {
                "score" => Expectation::Score(team, k),
                "rum" => Expectation::Rum(team, k),
                _ => Expectation::SideScore(team, k),
            }
        }
        "gold" => Expectation::Gold(w.count()?),
        "tile" => {
            let cell = w.cell(board)?;
            let check = match w.peek() {
                Some("fog") => {
                    w.pos += 1;
                    TileCheck::Fog
                }
                Some("used") => {
                    w.pos += 1;
                    TileCheck::Used
                }
                Some("unused") => {
                    w.pos += 1;
                    TileCheck::Unused
                }
                Some("open") if w.line.words.len() == w.pos + 1 => {
                    w.pos += 1;
                    TileCheck::Open
                }
                _ => {
                    let open = w.eat("open");
                    TileCheck::Kind {
                        kind: w.tile_kind()?,
                        open,
                    }
                }
            };
            Expectation::Tile(cell, check)
        }
        "ship" => {
            let team = w.team(teams)?;
            match w.next("at, hits or sunk")? {
                "at" => Expectation::ShipAt(team, w.cell(board)?),
                "hits" => Expectation::ShipHits(team, w.count()?),
                "sunk" => Expectation::ShipSunk(team),
                s => return Err(w.err(format!("`{s}`: at, hits or sunk expected"))),
            }
        }
        "boat" => {
            let team = w.team(teams)?;
            w.expect("at")?;
            Expectation::BoatAt(team, w.cell(board)?)
        }
        "boats" => {
            let team = w.team(teams)?;
            w.expect("=")?;
            Expectation::Boats(team, w.count()?)
        }
        "turn" => Expectation::Turn(w.team(teams)?),
        "controller" => Expectation::Controller(w.team(teams)?),
        "weed" => Expectation::Weed(w.count()?),
        "pending" => {
            let k = w.next("a choice kind")?;
            Expectation::Pending(
                ChoiceKind::parse(k).ok_or_else(|| w.err(format!("`{k}` is not a choice kind")))?,
            )
        }
        "no" => {
            w.expect("pending")?;
            Expectation::NoPending
        }
        "legal" => {
            let filter = if w.eat("for") {
                let f = w.next("a filter")?;
                if !matches!(
                    f,
                    "1" | "2" | "3" | "b" | "f" | "m" | "ship" | "boat" | "res" | "rum"
                ) {
                    return Err(w.err(format!("`{f}` is not a filter")));
                }
                Some(f.to_string())
            } else {
                None
            };
            let mode = match w.next("includes, excludes, exactly or count")? {
                "includes" => LegalMode::Includes,
                "excludes" => LegalMode::Excludes,
                "exactly" => LegalMode::Exactly,
                "count" => {
                    let k = w.count()?;
                    w.done()?;
                    return Ok(Expectation::LegalCount(filter, k));
                }
                s => {
                    return Err(w.err(format!(
                        "`{s}`: includes, excludes, exactly or count expected"
                    )));
                }
            };
            let actions: Vec<String> = w.rest().split(|t| t == ";").map(|a| a.join(" ")).collect();
            w.pos = line.words.len();
            if actions.iter().any(String::is_empty)
                && !(mode == LegalMode::Exactly && actions.len() == 1)
            {
                return Err(w.err("an empty action in the list"));
            }
            let actions = actions.into_iter().filter(|a| !a.is_empty()).collect();
            Expectation::Legal {
                filter,
                mode,
                actions,
            }
        }
        "fatal" => {
            let a = w.rest().join(" ");
            w.pos = line.words.len();
            Expectation::Fatal(true, a)
        }
        "reject" => {
            let mut rest: Vec<String> = w.rest().to_vec();
            let error = match rest.last().and_then(|l| ErrorKind::parse(l)) {
                Some(e) => {
                    rest.pop();
                    Some(e)
                }
                None => None,
            };
            if rest.is_empty() {
                // SCENARIOS §6: a rejection needs the action it rejects (an empty text is not
                // a rejection of nothing).
                return Err(w.err("`expect reject` needs an action"));
            }
            w.pos = line.words.len();
            Expectation::Reject(rest.join(" "), error)
        }
        "over" => match w.next("winner or draw")? {
            "winner" => {
                let team = w.team(teams)?;
                Expectation::Winner(team, reason(&mut w)?)
            }
            "draw" => {
                let mut list = Vec::new();
                while let Some(t) = w.peek() {
                    if t.bytes().all(|b| b.is_ascii_digit()) {
                        list.push(w.team(teams)?);
                    } else {
                        break;
                    }
                }
                Expectation::Draw(list, reason(&mut w)?)
            }
            s => return Err(w.err(format!("`{s}`: winner or draw expected"))),
        },
        "not" => match w.next("over or fatal")? {
            "over" => Expectation::NotOver,
            "fatal" => {
                let a = w.rest().join(" ");
                w.pos = line.words.len();
                Expectation::Fatal(false, a)
            }
            s => return Err(w.err(format!("`{s}`: over or fatal expected"))),
        },
        "eliminated" => Expectation::Eliminated(w.team(teams)?),
        s => return Err(w.err(format!("unknown expectation `{s}`"))),
    };
    w.done()?;
    Ok(e)
}

/// The result of checking one expectation.
pub enum Verdict {
    Pass,
    /// Failed, with the actual value.
    Fail(String),
    /// The line itself is wrong (an action in it does not parse, S-EXP-1).
    Error(String),
}

fn describe_place(game: &Game, place: Place) -> String {
    match place {
        Place::Land { cell, step } if step > 0 => format!("{cell} step {step}"),
        Place::Land { cell, .. } => cell.to_string(),
        Place::Swim(cell) => format!("{cell} (swimming)"),
        Place::Aboard(v) => format!("{} (aboard)", game.vessel(v).cell),
        Place::Tunnel(cell) => format!("tunnel (entered by {cell})"),
        Place::Dead => "dead".into(),
    }
}

fn interpret(game: &Game, text: &str) -> Result<Action, ErrorKind> {
    game.parse_action(text)
}

fn starts_with_filter(game: &Game, a: &Action, filter: &Option<String>) -> bool {
    match filter {
        None => true,
        Some(f) => game.notation(a).split(' ').next() == Some(f.as_str()),
    }
}

fn check_bool(ok: bool, actual: impl FnOnce() -> String) -> Verdict {
    if ok {
        Verdict::Pass
    } else {
        Verdict::Fail(actual())
    }
}

/// Checks an expectation; never changes the game.
pub fn check(game: &Game, e: &Expectation) -> Verdict {
    match e {
        Expectation::Unit(r, c) => check_unit(game, *r, c),
        Expectation::Items(cell, step, want) => {
            let board = game.board();
            let have = if board.is_sea(*cell) {
                game.vessel_at(*cell)
                    .map_or(Items::NONE, |v| game.vessel(v).items)
            } else {
                let k = game.maze_steps(*cell);
                match step {
                    Some(s) if k > 0 && *s != k => Items::NONE,
                    _ => game.items_at(*cell),
                }
            };
            check_bool(have == *want, || {
                if have.is_empty() {
                    "none".into()
                } else {
                    format!("= {}", have.list())
                }
            })
        }
        Expectation::Score(t, k) => check_bool(game.score(*t) == *k, || {
            format!("score {t} = {}", game.score(*t))
        }),
        Expectation::SideScore(t, k) => check_bool(game.side_score(*t) == *k, || {
            format!("side-score {t} = {}", game.side_score(*t))
        }),
        Expectation::Gold(k) => check_bool(game.gold_in_play() == *k, || {
            format!("gold {}", game.gold_in_play())
        }),
        Expectation::Rum(t, k) => {
            check_bool(game.rum(*t) == *k, || format!("rum {t} = {}", game.rum(*t)))
        }
        Expectation::Tile(cell, c) => {
            let Some(tile) = game.tile(*cell) else {
                return Verdict::Fail(format!("{cell} holds no tile"));
            };
            let actual = || {
                format!(
                    "{} {}{}",
                    if tile.open { "open" } else { "fog" },
                    tile.kind,
                    if tile.used { " used" } else { "" }
                )
            };
            let ok = match c {
                TileCheck::Fog => !tile.open,
                TileCheck::Open => tile.open,
                TileCheck::Used => tile.open && tile.used,
                TileCheck::Unused => !(tile.open && tile.used),
                TileCheck::Kind { kind, open } => tile.kind == *kind && (!open || tile.open),
            };
            check_bool(ok, actual)
        }
        Expectation::ShipAt(t, cell) => {
            let at = game.main_ship(*t).map(|v| game.vessel(v).cell);
            check_bool(at == Some(*cell), || match at {
                Some(c) => format!("ship {t} at {c}"),
                None => format!("ship {t} sunk"),
            })
        }
        Expectation::ShipHits(t, k) => {
            let hits = game
                .vessels()
                .iter()
                .find(|v| v.owner == *t && !v.boat)
                .map_or(0, |v| v.hits as u32);
            check_bool(hits == *k, || format!("ship {t} hits {hits}"))
        }
        Expectation::ShipSunk(t) => {
            check_bool(game.main_ship(*t).is_none(), || format!("ship {t} afloat"))
        }
        Expectation::BoatAt(t, cell) => check_bool(
            game.vessels()
                .iter()
                .any(|v| v.boat && !v.sunk && v.owner == *t && v.cell == *cell),
            || format!("no boat of team {t} on {cell}"),
        ),
        Expectation::Boats(t, k) => {
            let n = game
                .vessels()
                .iter()
                .filter(|v| v.boat && !v.sunk && v.owner == *t)
                .count() as u32;
            check_bool(n == *k, || format!("boats {t} = {n}"))
        }
        Expectation::Turn(t) => check_bool(!game.is_over() && game.turn() == *t, || {
            if game.is_over() {
                "the game is over".into()
            } else {
                format!("turn {}", game.turn())
            }
        }),
        Expectation::Controller(t) => check_bool(game.controller() == *t, || {
            format!("controller {}", game.controller())
        }),
        Expectation::Weed(k) => check_bool(game.weed() == *k, || format!("weed {}", game.weed())),
        Expectation::Pending(k) => {
            check_bool(game.pending_kind() == Some(*k), || pending_text(game))
        }
        Expectation::NoPending => check_bool(game.pending_kind().is_none(), || pending_text(game)),
        Expectation::Legal {
            filter,
            mode,
            actions,
        } => check_legal(game, filter, *mode, actions),
        Expectation::LegalCount(filter, k) => {
            let n = game
                .legal_actions_unflagged()
                .iter()
                .filter(|a| starts_with_filter(game, a, filter))
                .count() as u32;
            check_bool(n == *k, || format!("count {n}"))
        }
        Expectation::Fatal(want, text) => match interpret(game, text) {
            Err(e @ (ErrorKind::Syntax | ErrorKind::Ambiguous)) => {
                Verdict::Error(format!("`{text}`: {e}"))
            }
            Err(e) => Verdict::Fail(format!("not legal: {e}")),
            Ok(a) => match game.legal_actions().into_iter().find(|l| l.action == a) {
                None => Verdict::Fail(format!(
                    "not legal: {}",
                    game.check(&a)
                        .err()
                        .map_or("not listed".into(), |e| e.kind.to_string())
                )),
                Some(l) => check_bool(l.fatal == *want, || {
                    if l.fatal {
                        "fatal".into()
                    } else {
                        "not fatal".into()
                    }
                }),
            },
        },
        Expectation::Reject(text, error) => {
            let result = interpret(game, text).and_then(|a| game.check(&a).map_err(|e| e.kind));
            match (result, error) {
                (Ok(()), _) => Verdict::Fail("accepted".into()),
                (Err(got), Some(want)) if got != *want => Verdict::Fail(format!("rejected: {got}")),
                _ => Verdict::Pass,
            }
        }
        Expectation::Winner(t, r) => match game.outcome() {
            Some(o) if !o.draw && o.winners.contains(t) && r.is_none_or(|r| r == o.reason) => {
                Verdict::Pass
            }
            _ => Verdict::Fail(outcome_text(game)),
        },
        Expectation::Draw(teams, r) => match game.outcome() {
            Some(o)
                if o.draw
                    && r.is_none_or(|r| r == o.reason)
                    && (teams.is_empty() || same_sides(game, teams, &o.winners)) =>
            {
                Verdict::Pass
            }
            _ => Verdict::Fail(outcome_text(game)),
        },
        Expectation::NotOver => check_bool(!game.is_over(), || outcome_text(game)),
        Expectation::Eliminated(t) => {
            check_bool(game.is_eliminated(*t), || format!("team {t} in play"))
        }
    }
}

fn same_sides(game: &Game, listed: &[Team], winners: &[Team]) -> bool {
    let mut a: Vec<Team> = listed.iter().flat_map(|t| game.side_of(*t)).collect();
    let mut b = winners.to_vec();
    a.sort();
    a.dedup();
    b.sort();
    a == b
}

fn outcome_text(game: &Game) -> String {
    match game.outcome() {
        None => "not over".into(),
        Some(o) => {
            let teams: Vec<String> = o.winners.iter().map(|t| t.to_string()).collect();
            format!(
                "over {} {} {}",
                if o.draw { "draw" } else { "winner" },
                teams.join(" "),
                o.reason.id()
            )
        }
    }
}

fn pending_text(game: &Game) -> String {
    match game.pending_kind() {
        Some(k) => format!("pending {}", k.name()),
        None => "no pending".into(),
    }
}

fn check_unit(game: &Game, r: UnitRef, c: &UnitCheck) -> Verdict {
    let unit = game.unit(r);
    let where_now = || match unit {
        Some(u) => describe_place(game, u.place),
        None => format!("no living unit {r}"),
    };
    match c {
        UnitCheck::At(cell, step) => {
            let Some(u) = unit else {
                return Verdict::Fail(where_now());
            };
            let board = game.board();
            let ok = match u.place {
                Place::Land { cell: c, step: s } => c == *cell && step.is_none_or(|k| k == s),
                Place::Swim(c) => c == *cell && step.is_none() && board.is_sea(c),
                Place::Aboard(v) => game.vessel(v).cell == *cell && step.is_none(),
                _ => false,
            };
            check_bool(ok, where_now)
        }
        UnitCheck::Tunnel => check_bool(unit.is_some_and(|u| u.stuck()), where_now),
        UnitCheck::State(state) => match game.unit(r).map(|u| state.holds(u)) {
            Some(true) => Verdict::Pass,
            Some(false) => Verdict::Fail(format!("not {}", state.word())),
            None => Verdict::Fail(where_now()),
        },
        UnitCheck::Dead => {
            let dead = game.find_unit(r).is_none()
                && game
                    .units()
                    .iter()
                    .any(|u| u.team == r.team && u.kind == r.kind && !u.alive());
            check_bool(dead, where_now)
        }
        UnitCheck::Absent => check_bool(unit.is_none(), where_now),
        UnitCheck::Carries(items) => {
            let Some(i) = game.find_unit(r) else {
                return Verdict::Fail(where_now());
            };
            let carried = match game.pending() {
                Some(p) if p.unit() == Some(i) => p.cargo(),
                _ => Items::NONE,
            };
            check_bool(carried == *items, || {
                if carried.is_empty() {
                    "carries nothing".into()
                } else {
                    format!("carries {}", carried.words())
                }
            })
        }
    }
}

fn check_legal(game: &Game, filter: &Option<String>, mode: LegalMode, texts: &[String]) -> Verdict {
    let legal: Vec<Action> = game
        .legal_actions_unflagged()
        .into_iter()
        .filter(|a| starts_with_filter(game, a, filter))
        .collect();
    let mut listed: Vec<(String, Option<Action>)> = Vec::new();
    for t in texts {
        match interpret(game, t) {
            Ok(a) => listed.push((game.notation(&a), Some(a))),
            Err(e @ (ErrorKind::Syntax | ErrorKind::Ambiguous)) => {
                return Verdict::Error(format!("`{t}`: {e}"));
            }
            Err(_) => listed.push((t.clone(), None)),
        }
    }
    let is_legal = |a: &Option<Action>| a.is_some_and(|a| legal.contains(&a));
    let missing: Vec<String> = listed
        .iter()
        .filter(|(_, a)| !is_legal(a))
        .map(|(t, _)| t.clone())
        .collect();
    let present: Vec<String> = listed
        .iter()
        .filter(|(_, a)| is_legal(a))
        .map(|(t, _)| t.clone())
        .collect();
    match mode {
        LegalMode::Includes => check_bool(missing.is_empty(), || {
            format!("missing: {}", missing.join("; "))
        }),
        LegalMode::Excludes => check_bool(present.is_empty(), || {
            format!("unexpected: {}", present.join("; "))
        }),
        LegalMode::Exactly => {
            let unexpected: Vec<String> = legal
                .iter()
                .filter(|a| !listed.iter().any(|(_, l)| l.as_ref() == Some(*a)))
                .map(|a| game.notation(a))
                .collect();
            check_bool(missing.is_empty() && unexpected.is_empty(), || {
                let mut parts = Vec::new();
                if !missing.is_empty() {
                    parts.push(format!("missing: {}", missing.join("; ")));
                }
                if !unexpected.is_empty() {
                    parts.push(format!("unexpected: {}", unexpected.join("; ")));
                }
                parts.join("  ")
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::item::Item;

    #[test]
    fn every_unit_state_reads_back_from_its_word() {
        for (word, state) in UnitState::WORDS {
            assert_eq!(UnitState::parse(word), Some(state));
            assert_eq!(state.word(), word);
        }
        assert_eq!(UnitState::parse("tipsy"), None);
    }

    fn line(text: &str) -> Line {
        super::super::lexer::split("t.scn", text)
            .remove(0)
            .lines
            .remove(0)
    }

    #[test]
    fn parses_expectations() {
        let b = Board::new(13).unwrap();
        assert_eq!(
            parse(&line("expect items e5 step 3 = coin 2, bar"), b, 2).unwrap(),
            Expectation::Items(Cell::parse("e5").unwrap(), Some(3), {
                let mut s = Items::NONE;
                s.add(Item::Coin, 2);
                s.add(Item::Bar, 1);
                s
            })
        );
        assert!(matches!(
            parse(&line("expect reject 1 e5 drop syntax"), b, 2).unwrap(),
            Expectation::Reject(t, Some(ErrorKind::Syntax)) if t == "1 e5 drop"
        ));
        assert!(parse(&line("expect unit 3.1 at e5"), b, 2).is_err());
        // No place holds more than 255 of an item: such a count used to be clipped to 255
        // and pass against 255 coins.
        assert!(parse(&line("expect items e5 = coin 256"), b, 2).is_err());
        assert!(parse(&line("expect items e5 = coin 200, coin 56"), b, 2).is_err());
        assert!(parse(&line("expect items e5 = coin 200, coin 55"), b, 2).is_ok());
        assert!(matches!(
            parse(&line("expect legal exactly d5; d5 drop; f5"), b, 2).unwrap(),
            Expectation::Legal { actions, .. } if actions.len() == 3
        ));
        assert!(matches!(
            parse(&line("expect tile g2 open"), b, 2).unwrap(),
            Expectation::Tile(_, TileCheck::Open)
        ));
        assert!(matches!(
            parse(&line("expect tile k9 open cave"), b, 2).unwrap(),
            Expectation::Tile(_, TileCheck::Kind { open: true, .. })
        ));
    }
}
