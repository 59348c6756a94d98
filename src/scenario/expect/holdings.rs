//! `expect items`, `gold`, `score`, `side-score` and `rum`: what lies where, and what the
//! teams have banked.

use super::{Verdict, pass_if, unknown_expectation};
use crate::engine::board::{Board, Cell};
use crate::engine::game::Game;
use crate::engine::item::Items;
use crate::engine::unit::Team;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub enum HoldingsExpectation {
    Items(Cell, Option<u8>, Items),
    Gold(u32),
    Score(Team, u32),
    SideScore(Team, u32),
    Rum(Team, u32),
}

impl HoldingsExpectation {
    /// Reads the statement after `keyword`: `POS = LIST` or `POS none` for `items`, `K` for
    /// `gold`, `TEAM = K` for the team counts.
    pub fn parse(keyword: &str, w: &mut Words, board: Board, teams: u8) -> Result<Self, LineError> {
        Ok(match keyword {
            "items" => {
                let (cell, step) = w.pos(board)?;
                if w.eat("none") {
                    Self::Items(cell, step, Items::NONE)
                } else {
                    w.expect("=")?;
                    Self::Items(cell, step, item_list(w)?)
                }
            }
            "gold" => Self::Gold(w.count()?),
            "score" => {
                let (team, k) = team_count(w, teams)?;
                Self::Score(team, k)
            }
            "side-score" => {
                let (team, k) = team_count(w, teams)?;
                Self::SideScore(team, k)
            }
            "rum" => {
                let (team, k) = team_count(w, teams)?;
                Self::Rum(team, k)
            }
            s => return Err(unknown_expectation(w, s)),
        })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        match *self {
            Self::Items(cell, step, want) => {
                let have = items_at(game, cell, step);
                pass_if(have == want, || {
                    if have.is_empty() {
                        "none".into()
                    } else {
                        format!("= {}", have.list())
                    }
                })
            }
            Self::Gold(k) => pass_if(game.gold_in_play() == k, || {
                format!("gold {}", game.gold_in_play())
            }),
            Self::Score(t, k) => pass_if(game.score(t) == k, || {
                format!("score {t} = {}", game.score(t))
            }),
            Self::SideScore(t, k) => pass_if(game.side_score(t) == k, || {
                format!("side-score {t} = {}", game.side_score(t))
            }),
            Self::Rum(t, k) => pass_if(game.rum(t) == k, || format!("rum {t} = {}", game.rum(t))),
        }
    }
}

/// `TEAM = K`.
fn team_count(w: &mut Words, teams: u8) -> Result<(Team, u32), LineError> {
    let team = w.team(teams)?;
    w.expect("=")?;
    Ok((team, w.count()?))
}

/// `WORD [COUNT]` entries joined by `,`.
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

/// The items at a position: on a sea cell, those aboard the vessel there. A maze keeps its
/// items on its last step, so any other step named holds none.
fn items_at(game: &Game, cell: Cell, step: Option<u8>) -> Items {
    if game.board().is_sea(cell) {
        game.vessel_at(cell)
            .map_or(Items::NONE, |v| game.vessel(v).items)
    } else {
        let k = game.maze_steps(cell);
        match step {
            Some(s) if k > 0 && s != k => Items::NONE,
            _ => game.items_at(cell),
        }
    }
}
