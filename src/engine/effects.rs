//! What a tile does to a unit that has just entered it (R-CHAIN-2 f): the tiles that move it
//! on (§12: arrows, horses, ice, crocodiles, cannons, balloons, caves) and the first look at a
//! face-down tile (R-OPEN-1, "opened by a unit").

use super::action::{ChoiceKind, Motion};
use super::board::{Cell, Dir, DirSet};
use super::chain::{Entry, Flow};
use super::event::{DeathCause, Event, OpenedBy};
use super::game::{Chain, Game};
use super::item::{Item, Items};
use super::tile::TileKind;
use super::unit::Place;

impl Game {
    /// The effect of the open tile `kind` on `x` for the chain's unit, which entered it by
    /// `motion` from `from_place`.
    pub(super) fn tile_effect(
        &mut self,
        ch: &mut Chain,
        x: Cell,
        kind: TileKind,
        motion: Motion,
        from_place: Place,
        ev: &mut Vec<Event>,
    ) -> Flow {
        match kind {
            TileKind::Arrow(exits) => self.arrow(x, exits),
            TileKind::Horse => Flow::Choice(ChoiceKind::Jump),
            TileKind::Ice => self.ice(x, motion),
            TileKind::Crocodile => self.crocodile(from_place, motion),
            TileKind::Cannon(d) => self.cannon(ch, x, d, ev),
            TileKind::Balloon => self.balloon(ch, x, ev),
            TileKind::Cave => self.enter_cave(ch, x, ev),
            _ => Flow::Stand,
        }
    }

    /// R-ARROW-1/2: one exit is followed; several are a fork, the player's `exit` choice.
    fn arrow(&self, x: Cell, exits: DirSet) -> Flow {
        if exits.len() > 1 {
            return Flow::Choice(ChoiceKind::Exit);
        }
        let d = exits.iter().next().expect("an arrow has an exit");
        let next = self.board.step(x, d).expect("land neighbours exist");
        Flow::Next(Entry::new(next, Motion::Step(d)))
    }

    /// R-ICE-1: the motion that brought the unit, once more.
    fn ice(&self, x: Cell, motion: Motion) -> Flow {
        match motion {
            Motion::Step(d) => {
                let next = self.board.step(x, d).expect("land neighbours exist");
                Flow::Next(Entry::new(next, Motion::Step(d)))
            }
            Motion::Jump(..) => Flow::Choice(ChoiceKind::Jump),
            Motion::Flight => Flow::Choice(ChoiceKind::Flight),
            // No other motion ends on ice: shots and balloons end at sea, the tunnel at a
            // cave, an advance inside a maze.
            _ => Flow::Stand,
        }
    }

    /// R-CROC-1: back to the exact position the unit came from, by the reverse motion.
    fn crocodile(&self, back: Place, motion: Motion) -> Flow {
        let cell = self.place_cell(back).expect("a real position");
        let step = match back {
            Place::Land { step, .. } => Some(step),
            _ => None,
        };
        Flow::Next(Entry {
            cell,
            motion: motion.reverse(),
            step,
        })
    }

    /// R-CANNON-1: shot along the barrel to the first sea cell; with a cannonball in the cargo
    /// the cannon fires it instead and the unit stays (R-BALL-1).
    fn cannon(&mut self, ch: &mut Chain, x: Cell, d: Dir, ev: &mut Vec<Event>) -> Flow {
        if ch.cargo.count(Item::Ball) > 0 {
            let mut ball = Items::NONE;
            ball.add(Item::Ball, 1);
            ch.cargo.remove_all(ball);
            let team = self.units[ch.unit].team;
            self.fire(x, d, team, ev);
            return Flow::Stand;
        }
        Flow::Next(Entry::new(self.board.first_sea(x, d), Motion::Shot))
    }

    /// R-BALLOON-1: carried off to the retreat vessel, cargo and all; with none, the unit dies.
    fn balloon(&mut self, ch: &mut Chain, x: Cell, ev: &mut Vec<Event>) -> Flow {
        let team = self.units[ch.unit].team;
        match self.retreat_vessel(team, x) {
            Some(v) => Flow::Next(Entry::new(self.vessels[v].cell, Motion::Balloon)),
            None => self.die_in_chain(ch, DeathCause::NoVessel, ev),
        }
    }

    /// R-OPEN-1, "opened by a unit": the tile turns face up and what it hides appears. The
    /// lighthouse and the earthquake act once the chain has ended (R-CHAIN-8); the caramba and
    /// the first-entry tiles act where the chain ends on them (`standing`).
    pub(super) fn open_by_unit(&mut self, x: Cell, ev: &mut Vec<Event>) {
        let kind = self.turn_face_up(x, OpenedBy::Unit, ev);
        match kind {
            TileKind::Lighthouse => self.after.reveals += 4,
            TileKind::Earthquake => self.after.quake = true,
            _ => {}
        }
        self.show_contents(x, kind, ev);
        if kind.acts_on_opening() && kind != TileKind::Caramba {
            self.tile_mut(x).used = true;
        }
    }

    /// Any opening: the tile is face up for good, which is progress (R-END-6).
    pub(super) fn turn_face_up(&mut self, x: Cell, by: OpenedBy, ev: &mut Vec<Event>) -> TileKind {
        self.progress = true;
        let tile = self.tile_mut(x);
        tile.open = true;
        let kind = tile.kind;
        ev.push(Event::Opened { cell: x, kind, by });
        kind
    }

    /// Gold and items of an opened chest or item tile appear on the cell (R-CHEST-1,
    /// R-ITEMTILE-1).
    pub(super) fn show_contents(&mut self, x: Cell, kind: TileKind, ev: &mut Vec<Event>) {
        let appeared = kind.contents();
        if !appeared.is_empty() {
            self.items_mut(x).add_all(appeared);
            ev.push(Event::Appeared {
                cell: x,
                items: appeared,
            });
        }
    }
}
