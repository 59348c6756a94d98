//! The options of a pending choice (R-TURN-3): listed for the player, and asked about one at
//! a time when a choice is played.

use super::action::{Action, ChoiceKind};
use super::board::{Cell, KNIGHT_JUMPS};
use super::game::Game;
use super::item::Items;
use super::tile::TileKind;

impl Game {
    /// Options of the pending choice (R-TURN-3), in a stable order.
    pub(crate) fn choice_options(&self) -> Vec<Action> {
        let Some(p) = &self.pending else {
            return Vec::new();
        };
        let Some(ch) = &p.chain else {
            return self.after_chain_options(p.kind, p.first);
        };
        let unit = &self.units[ch.unit];
        let Some(here) = self.unit_cell(ch.unit) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        match p.kind {
            ChoiceKind::Exit | ChoiceKind::Jump => {
                let cells: Vec<Cell> = match (p.kind, self.open_kind(here)) {
                    (ChoiceKind::Exit, Some(TileKind::Arrow(exits))) => exits
                        .iter()
                        .filter_map(|d| self.board.step(here, d))
                        .collect(),
                    _ => self.knight_targets(here),
                };
                // Cargo may change at a fork or horse (R-CARGO-9), not after ice.
                let selections = if self.open_kind(here) == Some(TileKind::Ice) {
                    vec![ch.cargo]
                } else {
                    let mut pool = self.items_at(here);
                    pool.add_all(ch.cargo);
                    if unit.carries() {
                        pool.selections()
                    } else {
                        vec![Items::NONE]
                    }
                };
                for cell in cells {
                    for &cargo in &selections {
                        out.push(Action::Choose { cell, cargo });
                    }
                }
            }
            ChoiceKind::Flight => {
                for cell in self.board.land_cells().filter(|c| *c != here) {
                    out.push(Action::Choose {
                        cell,
                        cargo: ch.cargo,
                    });
                }
            }
            ChoiceKind::Cave => {
                for cell in self.tunnel_exits(ch.unit, here) {
                    out.push(Action::Choose {
                        cell,
                        cargo: ch.cargo,
                    });
                }
            }
            ChoiceKind::Reveal | ChoiceKind::Quake => {}
        }
        out
    }

    /// Knight targets that are land or hold a vessel (R-HORSE-1).
    pub(crate) fn knight_targets(&self, from: Cell) -> Vec<Cell> {
        KNIGHT_JUMPS
            .iter()
            .filter_map(|&v| self.board.jump(from, v))
            .filter(|c| self.board.is_land(*c) || self.vessel_at(*c).is_some())
            .collect()
    }

    /// Is `Choose { cell, cargo }` one of [`Game::choice_options`]? The same answer without
    /// building the list: a flight alone has a hundred options.
    pub(crate) fn is_choice_option(&self, cell: Cell, cargo: Items) -> bool {
        let Some(p) = &self.pending else {
            return false;
        };
        let Some(ch) = &p.chain else {
            return self
                .after_chain_options(p.kind, p.first)
                .contains(&Action::Choose { cell, cargo });
        };
        let Some(here) = self.unit_cell(ch.unit) else {
            return false;
        };
        match p.kind {
            ChoiceKind::Exit | ChoiceKind::Jump => {
                let kind = self.open_kind(here);
                let reached = match (p.kind, kind) {
                    (ChoiceKind::Exit, Some(TileKind::Arrow(exits))) => {
                        exits.iter().any(|d| self.board.step(here, d) == Some(cell))
                    }
                    _ => {
                        KNIGHT_JUMPS
                            .iter()
                            .any(|&v| self.board.jump(here, v) == Some(cell))
                            && (self.board.is_land(cell) || self.vessel_at(cell).is_some())
                    }
                };
                // The selections offered are those within capacity taken from hand and cell.
                let offered = if kind == Some(TileKind::Ice) {
                    cargo == ch.cargo
                } else if self.units[ch.unit].carries() {
                    let mut pool = self.items_at(here);
                    pool.add_all(ch.cargo);
                    pool.contains(cargo) && cargo.within_capacity()
                } else {
                    cargo.is_empty()
                };
                reached && offered
            }
            ChoiceKind::Flight => cargo == ch.cargo && self.board.is_land(cell) && cell != here,
            ChoiceKind::Cave => {
                cargo == ch.cargo && self.tunnel_exits(ch.unit, here).contains(&cell)
            }
            ChoiceKind::Reveal | ChoiceKind::Quake => false,
        }
    }
}
