//! What comes after a unit's chain has ended and before the turn does (R-CHAIN-8): the
//! lighthouse's reveals (R-LIGHT) and the earthquake's swap (R-QUAKE), each asked of the acting
//! team one cell at a time; and the caramba (R-CARAMBA-1), which a reveal can fire.

use serde::{Deserialize, Serialize};

use super::action::{Action, ChoiceKind};
use super::board::Cell;
use super::event::{Event, OpenedBy};
use super::game::{Game, Pending};
use super::item::Items;
use super::team_cells::CellSet;
use super::tile::TileKind;
use super::unit::{Place, UnitId};

/// Work due once the chain has ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct After {
    /// Lighthouse reveals still due (R-LIGHT-1/2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reveals: u32,
    /// An earthquake to play before anything else (R-LIGHT-2, R-QUAKE-1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quake: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl After {
    pub fn is_none(&self) -> bool {
        *self == After::default()
    }
}

impl Game {
    /// Asks for the next reveal or quake cell, applying single options at once, and ends the
    /// turn when nothing is left to ask.
    pub(super) fn continue_after_chain(&mut self, ev: &mut Vec<Event>) {
        loop {
            if self.outcome.is_some() {
                return;
            }
            if self.after.quake {
                let cells = self.quake_cells(None);
                if cells.len() < 2 {
                    // Fewer than two cells to swap: the earthquake has no effect.
                    self.after.quake = false;
                    continue;
                }
                self.pending = Some(Pending::after_chain(ChoiceKind::Quake, None));
                ev.push(Event::ChoiceRequired {
                    kind: ChoiceKind::Quake,
                });
                return;
            }
            if self.after.reveals > 0 {
                // None, one or more fog cells: the first two tell.
                let mut fog = self.board.land_cells().filter(|c| self.is_fog(*c));
                match (fog.next(), fog.next()) {
                    // Reveals due when no fog is left are dropped (R-LIGHT-1).
                    (None, _) => self.after.reveals = 0,
                    (Some(only), None) => self.reveal(only, ev),
                    _ => {
                        self.pending = Some(Pending::after_chain(ChoiceKind::Reveal, None));
                        ev.push(Event::ChoiceRequired {
                            kind: ChoiceKind::Reveal,
                        });
                        return;
                    }
                }
                continue;
            }
            return self.end_turn(ev);
        }
    }

    /// Answers a pending `reveal` or `quake` choice.
    pub(super) fn answer_after_chain(&mut self, cell: Cell, ev: &mut Vec<Event>) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        match (pending.kind, pending.first) {
            (ChoiceKind::Reveal, _) => self.reveal(cell, ev),
            (ChoiceKind::Quake, None) => {
                let rest = self.quake_cells(Some(cell));
                if let [only] = rest.as_slice() {
                    self.quake(cell, *only, ev);
                } else {
                    self.pending = Some(Pending::after_chain(ChoiceKind::Quake, Some(cell)));
                    ev.push(Event::ChoiceRequired {
                        kind: ChoiceKind::Quake,
                    });
                    return;
                }
            }
            (ChoiceKind::Quake, Some(first)) => self.quake(first, cell, ev),
            _ => {}
        }
        self.continue_after_chain(ev);
    }

    /// The options of a pending `reveal` or `quake` choice.
    pub(super) fn after_chain_options(&self, kind: ChoiceKind, first: Option<Cell>) -> Vec<Action> {
        let cells: Vec<Cell> = match kind {
            ChoiceKind::Reveal => self
                .board
                .land_cells()
                .filter(|c| self.is_fog(*c))
                .collect(),
            ChoiceKind::Quake => self.quake_cells(first),
            _ => Vec::new(),
        };
        cells
            .into_iter()
            .map(|cell| Action::Choose {
                cell,
                cargo: Items::NONE,
            })
            .collect()
    }

    /// R-LIGHT-2: the tile on `c` is revealed, with the "lighthouse" column of R-OPEN-1.
    fn reveal(&mut self, c: Cell, ev: &mut Vec<Event>) {
        self.after.reveals = self.after.reveals.saturating_sub(1);
        let kind = self.turn_face_up(c, OpenedBy::Lighthouse, ev);
        self.show_contents(c, kind, ev);
        if kind.acts_on_opening() {
            self.tile_mut(c).used = true;
        }
        match kind {
            TileKind::Lighthouse => self.after.reveals += 4,
            // Played at once, before the next reveal.
            TileKind::Earthquake => self.after.quake = true,
            TileKind::Caramba => self.caramba(c, ev),
            TileKind::Cave => self.release_onto_opened(c, ev),
            // First-entry tiles wait for the first unit to end a move on them (R-OPEN-2).
            _ => {}
        }
    }

    /// The cells an earthquake may swap (R-QUAKE-1): open land cells holding no unit and no
    /// item, a cave whose tunnel holds the unit that entered by it counting as held (D-41);
    /// without `first`, the cell chosen first.
    fn quake_cells(&self, first: Option<Cell>) -> Vec<Cell> {
        // Who stands on each land cell from the sets of cells the units keep, and the tunnel's
        // entry caves from one pass: not a pass over every unit for each of a hundred cells.
        let held = self.units.cells().of_teams(0b1111);
        let mut entered = CellSet::default();
        for u in self.units.iter() {
            if let Place::Tunnel(cave) = u.place {
                entered.insert(cave);
            }
        }
        self.board
            .land_cells()
            .filter(|&c| Some(c) != first)
            .filter(|&c| !self.is_fog(c) && self.items_at(c).is_empty())
            .filter(|&c| !held.contains(c) && !entered.contains(c))
            .collect()
    }

    /// R-QUAKE-1: the two tiles swap places, each keeping its kind, rotation and state.
    fn quake(&mut self, a: Cell, b: Cell, ev: &mut Vec<Event>) {
        self.after.quake = false;
        let (ia, ib) = (self.board.index(a), self.board.index(b));
        self.tiles.swap(ia, ib);
        ev.push(Event::Quaked { a, b });
    }

    /// R-CARAMBA-1: every unit not aboard a vessel goes to its retreat vessel and loses drunk,
    /// trapped, stuck and seated; items stay. Units with no vessel to go to die (R-RETREAT-4).
    pub(super) fn caramba(&mut self, at: Cell, ev: &mut Vec<Event>) {
        ev.push(Event::Caramba { cell: at });
        let ashore: Vec<(UnitId, Cell)> = self
            .units
            .enumerate()
            .filter_map(|(i, u)| match u.place {
                Place::Land { cell, .. } | Place::Swim(cell) | Place::Tunnel(cell) => {
                    Some((i, cell))
                }
                _ => None,
            })
            .collect();
        for (u, from) in ashore {
            let team = self.units[u].team;
            match self.retreat_vessel(team, from) {
                Some(v) => {
                    self.send_aboard(u, v);
                    ev.push(Event::Retreated {
                        unit: self.units[u].reference(),
                        from,
                        to: self.vessels[v].cell,
                    });
                }
                None => self.kill(u, from, super::event::DeathCause::NoVessel, ev),
            }
        }
        for v in self.vessels.ids() {
            let cell = self.vessels[v].cell;
            self.friday_meets_missionary(Place::Aboard(v), cell, ev);
        }
    }
}
