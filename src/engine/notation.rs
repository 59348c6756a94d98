//! The action notation of SCENARIOS §4: what players type (`2 e5 coin`, `ship f1`, `d5 drop`)
//! and the canonical form the engine prints.
//!
//! Reading happens in two stages. [`parse`] checks only the form and the board (S-NOT-3
//! `syntax`); [`Game::interpret`] then reads it in the current state (S-NOT-1): choice or
//! not, which boat, which fortress, what "keep the cargo" means.

use super::action::Action;
use super::board::{Board, Cell};
use super::error::ErrorKind;
use super::game::{Game, Pending};
use super::item::{Item, Items};
use super::tile::TileKind;
use super::unit::UnitKind;

/// What the cargo part of a choice answer says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChoiceCargo {
    /// No words: continue with the cargo carried now.
    Keep,
    /// `drop`: continue with nothing.
    Drop,
    /// Exactly these items.
    Exactly(Items),
}

/// An action as written, before the state gives it its meaning.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    Move {
        unit: UnitKind,
        to: Cell,
        cargo: Items,
    },
    Ship(Cell),
    Boat(Option<Cell>, Cell),
    Res(Option<Cell>),
    Rum(Cell),
    Choice(Cell, ChoiceCargo),
}

fn items(words: &[&str]) -> Option<Items> {
    let mut set = Items::NONE;
    for w in words {
        set.add(Item::parse(w)?, 1);
    }
    Some(set)
}

/// Reads the form of an action (case-insensitive). Cells must exist on `board`.
pub fn parse(text: &str, board: Board) -> Result<Notation, ErrorKind> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let cell = |w: &str| board.parse_cell(w).ok_or(ErrorKind::Syntax);
    let (first, rest) = words.split_first().ok_or(ErrorKind::Syntax)?;
    let notation = match (*first, rest) {
        ("ship", [to]) => Notation::Ship(cell(to)?),
        ("boat", [to]) => Notation::Boat(None, cell(to)?),
        ("boat", [from, to]) => Notation::Boat(Some(cell(from)?), cell(to)?),
        ("res", []) => Notation::Res(None),
        ("res", [at]) => Notation::Res(Some(cell(at)?)),
        ("rum", [at]) => Notation::Rum(cell(at)?),
        (id, [to, cargo @ ..]) if UnitKind::parse(id).is_some() => Notation::Move {
            unit: UnitKind::parse(id).expect("checked"),
            to: cell(to)?,
            cargo: items(cargo).ok_or(ErrorKind::Syntax)?,
        },
        (at, rest) if Cell::parse(at).is_some() => {
            let at = cell(at)?;
            match rest {
                [] => Notation::Choice(at, ChoiceCargo::Keep),
                ["drop"] => Notation::Choice(at, ChoiceCargo::Drop),
                words => Notation::Choice(
                    at,
                    ChoiceCargo::Exactly(items(words).ok_or(ErrorKind::Syntax)?),
                ),
            }
        }
        _ => return Err(ErrorKind::Syntax),
    };
    Ok(notation)
}

impl Game {
    /// Cargo in the acting unit's hand during a pending choice.
    pub fn carried(&self) -> Items {
        self.pending.as_ref().map_or(Items::NONE, Pending::cargo)
    }

    /// Gives a parsed notation its meaning now (S-NOT-1), reporting `game_over`,
    /// `choice_pending`/`no_choice_pending` and `ambiguous` in the order of S-NOT-4.
    pub fn interpret(&self, notation: Notation) -> Result<Action, ErrorKind> {
        if self.outcome.is_some() {
            return Err(ErrorKind::GameOver);
        }
        let is_choice = matches!(notation, Notation::Choice(..));
        if self.pending.is_some() && !is_choice {
            return Err(ErrorKind::ChoicePending);
        }
        if self.pending.is_none() && is_choice {
            return Err(ErrorKind::NoChoicePending);
        }
        let team = self.turn;
        Ok(match notation {
            Notation::Move { unit, to, cargo } => Action::Move { unit, to, cargo },
            Notation::Ship(to) => Action::Ship { to },
            Notation::Boat(Some(from), to) => Action::Boat { from, to },
            Notation::Boat(None, to) => {
                let boats: Vec<Cell> = self
                    .vessels
                    .iter()
                    .filter(|v| v.boat && !v.sunk && v.owner == team)
                    .map(|v| v.cell)
                    .collect();
                match boats.as_slice() {
                    [] => return Err(ErrorKind::VesselCannotMove),
                    [from] => Action::Boat { from: *from, to },
                    _ => return Err(ErrorKind::Ambiguous),
                }
            }
            Notation::Res(Some(at)) => Action::Resurrect { at },
            Notation::Res(None) => {
                let mut forts: Vec<Cell> = self
                    .units
                    .iter()
                    .filter(|u| u.team == team && u.sails() && u.able())
                    .filter_map(|u| self.place_cell(u.place))
                    .filter(|c| self.board.is_land(*c))
                    .filter(|c| self.open_kind(*c) == Some(TileKind::ResFort))
                    .collect();
                forts.sort();
                forts.dedup();
                match forts.as_slice() {
                    [] => return Err(ErrorKind::NoResurrection),
                    [at] => Action::Resurrect { at: *at },
                    _ => return Err(ErrorKind::Ambiguous),
                }
            }
            Notation::Rum(at) => Action::Rum { at },
            Notation::Choice(cell, cargo) => Action::Choose {
                cell,
                cargo: match cargo {
                    ChoiceCargo::Keep => self.carried(),
                    ChoiceCargo::Drop => Items::NONE,
                    ChoiceCargo::Exactly(items) => items,
                },
            },
        })
    }

    /// Parses and interprets text in the current state: the first error of S-NOT-4 up to
    /// `ambiguous`; rule checks are left to [`Game::check`] / [`Game::play`].
    pub fn parse_action(&self, text: &str) -> Result<Action, ErrorKind> {
        let notation = parse(text, self.board)?;
        self.interpret(notation)
    }

    /// Reads what a player typed as an action now: [`Game::parse_action`], with the word to
    /// blame when the text is not understood (`syntax`).
    pub fn read_action(&self, text: &str) -> Result<Action, super::error::IllegalAction> {
        self.parse_action(text).map_err(|kind| {
            let detail = match kind {
                ErrorKind::Syntax => super::refusal::syntax_detail(text, self.board),
                _ => None,
            };
            super::error::IllegalAction::with(kind, detail)
        })
    }

    /// Parses, interprets and plays text; any error leaves the game unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<Vec<super::event::Event>, ErrorKind> {
        let action = self.parse_action(text)?;
        self.play(&action).map_err(|e| e.kind)
    }

    /// The canonical form of an action in the current state (S-NOT-2).
    pub fn notation(&self, action: &Action) -> String {
        let with_items = |head: String, cargo: Items| {
            if cargo.is_empty() {
                head
            } else {
                format!("{head} {}", cargo.words())
            }
        };
        match *action {
            Action::Move { unit, to, cargo } => with_items(format!("{unit} {to}"), cargo),
            Action::Ship { to } => format!("ship {to}"),
            Action::Boat { from, to } => format!("boat {from} {to}"),
            Action::Resurrect { at } => format!("res {at}"),
            Action::Rum { at } => format!("rum {at}"),
            Action::Pass => "pass".into(),
            Action::Choose { cell, cargo } => {
                let carried = self.carried();
                if cargo == carried {
                    cell.to_string()
                } else if cargo.is_empty() {
                    format!("{cell} drop")
                } else {
                    with_items(cell.to_string(), cargo)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let b = Board::new(13).unwrap();
        assert!(matches!(parse("2 e5 coin", b), Ok(Notation::Move { .. })));
        assert!(matches!(parse("SHIP F1", b), Ok(Notation::Ship(_))));
        assert_eq!(parse("1 z9", b), Err(ErrorKind::Syntax));
        assert_eq!(parse("1 a1", b), Err(ErrorKind::Syntax));
        assert_eq!(parse("e5 drop coin", b), Err(ErrorKind::Syntax));
        assert_eq!(parse("", b), Err(ErrorKind::Syntax));
        assert_eq!(parse("4 e5", b), Err(ErrorKind::Syntax));
        assert!(matches!(
            parse("d5 drop", b),
            Ok(Notation::Choice(_, ChoiceCargo::Drop))
        ));
    }

    /// An action read from JSON (an import) may name a cell of a larger board: refused as
    /// `syntax`, like such a cell typed, and the game is untouched.
    #[test]
    fn typed_actions_off_the_board_are_syntax_errors() {
        let settings = crate::engine::Settings {
            board_size: 5,
            tile_pack: crate::engine::Pack::Classic,
            ..Default::default()
        };
        let mut game = Game::new(settings, 3).unwrap();
        let before = game.clone();
        let m13 = Cell::new(12, 12);
        for action in [
            Action::Move {
                unit: UnitKind::Pirate(1),
                to: m13,
                cargo: Items::NONE,
            },
            Action::Ship { to: m13 },
            Action::Boat { from: m13, to: m13 },
            Action::Resurrect { at: m13 },
            Action::Choose {
                cell: m13,
                cargo: Items::NONE,
            },
        ] {
            assert_eq!(
                game.play(&action).map_err(|e| e.kind),
                Err(ErrorKind::Syntax)
            );
        }
        assert_eq!(game, before);
    }
}
