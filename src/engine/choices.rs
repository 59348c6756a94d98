//! The options of a pending choice (R-TURN-3): listed for the player, and asked about one at
//! a time when a choice is played.

use std::ops::ControlFlow;

use super::action::{Action, ChoiceKind};
use super::board::{Cell, KNIGHT_JUMPS};
use super::game::Game;
use super::item::Items;
use super::stack_vec::StackVec;
use super::tile::TileKind;

impl Game {
    /// Options of the pending choice (R-TURN-3), in a stable order.
    pub(crate) fn choice_options(&self) -> Vec<Action> {
        let mut out = Vec::new();
        let _ = self.visit_choice_options(&mut |a| {
            out.push(a);
            ControlFlow::Continue(())
        });
        out
    }

    /// Calls `visit` with each option of the pending choice, in [`Game::choice_options`]'s
    /// order, until it says stop: the listing and a chain's "one option or several?" are
    /// answered without building the list (a flight has over a hundred options).
    pub(crate) fn visit_choice_options(
        &self,
        visit: &mut impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(p) = &self.pending else {
            return ControlFlow::Continue(());
        };
        let Some(ch) = &p.chain else {
            if p.kind == ChoiceKind::Reveal {
                // Every fog cell, straight from the tiles (a lighthouse offers a hundred).
                for cell in self.board.land_cells().filter(|c| self.is_fog(*c)) {
                    visit(Action::Choose {
                        cell,
                        cargo: Items::NONE,
                    })?;
                }
                return ControlFlow::Continue(());
            }
            for a in self.after_chain_options(p.kind, p.first) {
                visit(a)?;
            }
            return ControlFlow::Continue(());
        };
        let unit = &self.units[ch.unit];
        let Some(here) = self.unit_cell(ch.unit) else {
            return ControlFlow::Continue(());
        };
        match p.kind {
            ChoiceKind::Exit | ChoiceKind::Jump => {
                let mut cells: StackVec<Cell, 8> = StackVec::new();
                match (p.kind, self.open_kind(here)) {
                    (ChoiceKind::Exit, Some(TileKind::Arrow(exits))) => {
                        cells.extend(exits.iter().filter_map(|d| self.board.step(here, d)))
                    }
                    _ => cells.extend(self.knight_target_cells(here)),
                }
                // Cargo may change at a fork or horse (R-CARGO-9), not after ice.
                let mut selections: StackVec<Items, 24> = StackVec::new();
                if self.open_kind(here) == Some(TileKind::Ice) {
                    selections.push(ch.cargo);
                } else {
                    let mut pool = self.items_at(here);
                    pool.add_all(ch.cargo);
                    if unit.carries() {
                        pool.each_selection(|s| selections.push(s));
                    } else {
                        selections.push(Items::NONE);
                    }
                }
                for &cell in cells.as_slice() {
                    for &cargo in selections.as_slice() {
                        visit(Action::Choose { cell, cargo })?;
                    }
                }
            }
            ChoiceKind::Flight => {
                for cell in self.board.land_cells().filter(|c| *c != here) {
                    visit(Action::Choose {
                        cell,
                        cargo: ch.cargo,
                    })?;
                }
            }
            ChoiceKind::Cave => {
                for cell in self.tunnel_exits(ch.unit, here) {
                    visit(Action::Choose {
                        cell,
                        cargo: ch.cargo,
                    })?;
                }
            }
            ChoiceKind::Reveal | ChoiceKind::Quake => {}
        }
        ControlFlow::Continue(())
    }

    /// Knight targets that are land or hold a vessel (R-HORSE-1).
    pub(crate) fn knight_targets(&self, from: Cell) -> Vec<Cell> {
        self.knight_target_cells(from).collect()
    }

    /// [`Game::knight_targets`], one at a time.
    fn knight_target_cells(&self, from: Cell) -> impl Iterator<Item = Cell> + '_ {
        KNIGHT_JUMPS
            .iter()
            .filter_map(move |&v| self.board.jump(from, v))
            .filter(|c| self.board.is_land(*c) || self.vessel_at(*c).is_some())
    }

    /// Is `Choose { cell, cargo }` one of [`Game::choice_options`]? The same answer without
    /// building the list: a flight alone has a hundred options.
    pub(crate) fn is_choice_option(&self, cell: Cell, cargo: Items) -> bool {
        let Some(p) = &self.pending else {
            return false;
        };
        let Some(ch) = &p.chain else {
            if p.kind == ChoiceKind::Reveal {
                // A fog cell, empty-handed: the reveal's options without their list.
                return cargo.is_empty() && self.is_fog(cell);
            }
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
                cargo == ch.cargo && self.tunnel_exits(ch.unit, here).any(|e| e == cell)
            }
            ChoiceKind::Reveal | ChoiceKind::Quake => false,
        }
    }
}
