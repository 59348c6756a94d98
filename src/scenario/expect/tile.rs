//! `expect tile CELL …`: whether a tile is face down, open or spent, and its kind.

use super::{Verdict, pass_if};
use crate::engine::board::{Board, Cell};
use crate::engine::game::Game;
use crate::engine::tile::TileKind;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub struct TileExpectation {
    pub cell: Cell,
    pub check: TileCheck,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TileCheck {
    Fog,
    Open,
    Used,
    Unused,
    Kind { kind: TileKind, open: bool },
}

impl TileExpectation {
    /// Reads `CELL fog`, `CELL open`, `CELL used`, `CELL unused` or `CELL [open] KIND`.
    pub fn parse(w: &mut Words, board: Board) -> Result<Self, LineError> {
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
            // `open` alone is the state; followed by a word it qualifies a kind.
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
        Ok(TileExpectation { cell, check })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        let cell = self.cell;
        let Some(tile) = game.tile(cell) else {
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
        let ok = match &self.check {
            TileCheck::Fog => !tile.open,
            TileCheck::Open => tile.open,
            TileCheck::Used => tile.open && tile.used,
            TileCheck::Unused => !(tile.open && tile.used),
            TileCheck::Kind { kind, open } => tile.kind == *kind && (!open || tile.open),
        };
        pass_if(ok, actual)
    }
}
