//! `expect unit REF …`: where a unit is, which state it is in, what it carries in hand.

use super::unit_state::UnitState;
use super::{Verdict, pass_if};
use crate::engine::board::{Board, Cell};
use crate::engine::game::Game;
use crate::engine::item::Items;
use crate::engine::unit::{Place, UnitRef};
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub struct UnitExpectation {
    pub unit: UnitRef,
    pub check: UnitCheck,
}

#[derive(Clone, Debug, PartialEq)]
pub enum UnitCheck {
    At(Cell, Option<u8>),
    Tunnel,
    State(UnitState),
    Dead,
    Absent,
    Carries(Items),
}

impl UnitExpectation {
    /// Reads `REF at POS`, `REF at tunnel`, `REF STATE`, `REF dead`, `REF absent` or
    /// `REF carries …`.
    pub fn parse(w: &mut Words, board: Board, teams: u8) -> Result<Self, LineError> {
        let unit = w.unit_ref(teams)?;
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
            "carries" => UnitCheck::Carries(carried_items(w)?),
            s => match UnitState::parse(s) {
                Some(state) => UnitCheck::State(state),
                None => return Err(w.err(format!("`{s}` is not a unit state"))),
            },
        };
        Ok(UnitExpectation { unit, check })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        let r = self.unit;
        let unit = game.unit(r);
        let where_now = || match unit {
            Some(u) => describe_place(game, u.place),
            None => format!("no living unit {r}"),
        };
        match &self.check {
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
                pass_if(ok, where_now)
            }
            UnitCheck::Tunnel => pass_if(unit.is_some_and(|u| u.stuck()), where_now),
            UnitCheck::State(state) => match unit.map(|u| state.holds(u)) {
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
                pass_if(dead, where_now)
            }
            UnitCheck::Absent => pass_if(unit.is_none(), where_now),
            UnitCheck::Carries(items) => {
                let Some(i) = game.find_unit(r) else {
                    return Verdict::Fail(where_now());
                };
                let carried = match game.pending() {
                    Some(p) if p.unit() == Some(i) => p.cargo(),
                    _ => Items::NONE,
                };
                pass_if(carried == *items, || {
                    if carried.is_empty() {
                        "carries nothing".into()
                    } else {
                        format!("carries {}", carried.words())
                    }
                })
            }
        }
    }
}

/// The items after `carries`: `nothing`, or item words (one item each).
fn carried_items(w: &mut Words) -> Result<Items, LineError> {
    if w.eat("nothing") {
        return Ok(Items::NONE);
    }
    let mut items = Items::NONE;
    while w.peek().is_some() {
        items.add(w.item()?, 1);
    }
    if items.is_empty() {
        return Err(w.err("item words or `nothing` expected"));
    }
    Ok(items)
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
