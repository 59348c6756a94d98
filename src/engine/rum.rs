//! Serving rum (§14): a free action before the main action, paid from the team's own stock,
//! that acts on own and allied units at one cell (R-RUM-4).

use super::action::Motion;
use super::board::Cell;
use super::error::{Detail, ErrorKind};
use super::event::{DeathCause, Event};
use super::game::Game;
use super::tile::TileKind;
use super::unit::{Place, Team, UnitId};

/// What a serving on one cell would do, in the order R-RUM-4 applies it.
#[derive(Default)]
struct Effects {
    fridays: Vec<UnitId>,
    missionaries: Vec<UnitId>,
    caught: Vec<UnitId>,
    /// Units on a maze step before the last, and that maze's last step.
    climbers: Vec<(UnitId, u8)>,
}

/// The indices of the bits set, in increasing order.
fn set_bits(words: [u64; 3]) -> impl Iterator<Item = usize> {
    words.into_iter().enumerate().flat_map(|(w, mut bits)| {
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                w * 64 + b
            })
        })
    })
}

impl Game {
    /// The cell a unit serves from or is served at (R-RUM-3): where it stands, its maze or
    /// plane cell, its vessel's or swimming cell. A stuck unit is at no cell; as a server it
    /// counts as standing on its entry cave unless `no_trapped_rum` is on.
    fn rum_cell(&self, u: UnitId, serving: bool) -> Option<Cell> {
        match self.units[u].place {
            Place::Tunnel(cave) if serving && !self.settings.no_trapped_rum => Some(cave),
            Place::Tunnel(_) | Place::Dead => None,
            place => self.place_cell(place),
        }
    }

    /// R-RUM-3: an own living unit that is not drunk, at the target or next to it (a caught
    /// unit may serve).
    fn has_server(&self, team: Team, at: Cell) -> bool {
        self.units.enumerate().any(|(i, u)| {
            u.team == team
                && u.alive()
                && !u.drunk
                && self
                    .rum_cell(i, true)
                    .is_some_and(|c| c == at || self.board.adjacent(c, at))
        })
    }

    /// R-RUM-4 on `at` for `team`'s serving: own and allied units only, not those in the
    /// tunnel.
    fn rum_effects(&self, team: Team, at: Cell) -> Effects {
        let mut out = Effects::default();
        for (i, u) in self.units.enumerate() {
            if !self.allied(u.team, team) || self.rum_cell(i, false) != Some(at) {
                continue;
            }
            if u.is_friday() {
                out.fridays.push(i);
                continue;
            }
            if u.is_missionary() {
                out.missionaries.push(i);
            }
            if u.trapped {
                out.caught.push(i);
            }
            if let Place::Land { step, .. } = u.place {
                let k = self.maze_steps(at);
                if k > 0 && step < k {
                    out.climbers.push((i, k));
                }
            }
        }
        out
    }

    /// What [`Game::rum_effects`] would find, without building its lists (asked for every
    /// candidate cell on every ply a team holds rum): whether the serving has any effect, and
    /// the maze's last step when units would climb to it.
    fn rum_effect_summary(&self, team: Team, at: Cell) -> (bool, Option<u8>) {
        let mut any = false;
        for (i, u) in self.units.enumerate() {
            if !self.allied(u.team, team) || self.rum_cell(i, false) != Some(at) {
                continue;
            }
            // As in `rum_effects`: Friday only dies of it.
            if u.is_friday() {
                any = true;
                continue;
            }
            if u.is_missionary() || u.trapped {
                any = true;
            }
            if let Place::Land { step, .. } = u.place {
                let k = self.maze_steps(at);
                if k > 0 && step < k {
                    return (true, Some(k));
                }
            }
        }
        (any, None)
    }

    /// R-RUM-5: why serving on `at` is refused now (`rum_forbidden`), or `Ok`. A pending
    /// choice is the caller's check (`choice_pending`).
    pub(crate) fn check_rum(&self, team: Team, at: Cell) -> Result<(), ErrorKind> {
        match self.rum_refusal(team, at) {
            None => Ok(()),
            Some(_) => Err(ErrorKind::RumForbidden),
        }
    }

    /// Which rule of R-RUM-5 refuses a serving on `at`, if one does.
    pub(crate) fn rum_refusal(&self, team: Team, at: Cell) -> Option<Detail> {
        if self.rum[team.index()] == 0 {
            return Some(Detail::NoRumInStock);
        }
        if self.weed > 0 {
            return Some(Detail::WeedTurn);
        }
        if !self.has_server(team, at) {
            return Some(Detail::NoServer);
        }
        self.rum_refusal_near_server(team, at)
    }

    /// The rest of R-RUM-5 once stock, weed and server are known to allow the serving.
    fn rum_refusal_near_server(&self, team: Team, at: Cell) -> Option<Detail> {
        if self.open_kind(at) == Some(TileKind::Jungle) {
            return Some(Detail::RumOnJungle);
        }
        // The effects only matter on a maze (climbers onto enemies) or against waste: most
        // candidate cells are spared the look at every unit.
        if !self.settings.no_wasted_rum && self.maze_steps(at) == 0 {
            return None;
        }
        let (any, climb_to) = self.rum_effect_summary(team, at);
        if let Some(k) = climb_to
            && self
                .units_at(at, k)
                .any(|i| self.enemies(self.units[i].team, team))
        {
            return Some(Detail::RumOntoEnemy);
        }
        if self.settings.no_wasted_rum && !any {
            return Some(Detail::RumWasted);
        }
        None
    }

    /// The cells `team` may serve rum on now (R-RUM-5), in canonical order: every server's
    /// cell and its neighbours, checked. One at a time, without a list: asked on every ply.
    pub(crate) fn rum_targets(&self, team: Team) -> impl Iterator<Item = Cell> + '_ {
        let (near, effects) = if self.rum[team.index()] == 0 || self.weed > 0 {
            ([0; 3], [0; 3])
        } else {
            (self.rum_candidates(team), self.rum_effect_cells(team))
        };
        set_bits(near)
            .filter(move |&i| {
                // Every candidate has a server (it was marked from one): the rest of R-RUM-5.
                // A cell where the serving would do nothing is settled without the look at
                // every unit: refused as waste under `no_wasted_rum`, else open off the jungle.
                let c = self.board.cell_at(i);
                if effects[i / 64] & 1 << (i % 64) == 0 {
                    let open =
                        !self.settings.no_wasted_rum && self.open_kind(c) != Some(TileKind::Jungle);
                    debug_assert_eq!(open, self.rum_refusal_near_server(team, c).is_none());
                    return open;
                }
                self.rum_refusal_near_server(team, c).is_none()
            })
            .map(|i| self.board.cell_at(i))
    }

    /// Every server's cell and its neighbours (R-RUM-3), as bits of their board index, which
    /// runs in canonical order.
    fn rum_candidates(&self, team: Team) -> [u64; 3] {
        let mut near = [0u64; 3];
        let mut mark = |c: Cell| {
            let i = self.board.index(c);
            near[i / 64] |= 1 << (i % 64);
        };
        for (i, u) in self.units.enumerate() {
            if u.team != team || !u.alive() || u.drunk {
                continue;
            }
            if let Some(c) = self.rum_cell(i, true) {
                mark(c);
                self.board.neighbours(c).for_each(&mut mark);
            }
        }
        near
    }

    /// The cells (bits of their board index) where serving rum would act on someone: own and
    /// allied Fridays, missionaries, caught units and climbers of a maze, as `rum_effects`
    /// finds them.
    fn rum_effect_cells(&self, team: Team) -> [u64; 3] {
        let mut out = [0u64; 3];
        for (i, u) in self.units.enumerate() {
            if !self.allied(u.team, team) {
                continue;
            }
            let Some(c) = self.rum_cell(i, false) else {
                continue;
            };
            let climbs = match u.place {
                Place::Land { step, .. } => step < self.maze_steps(c),
                _ => false,
            };
            if u.is_friday() || u.is_missionary() || u.trapped || climbs {
                let b = self.board.index(c);
                out[b / 64] |= 1 << (b % 64);
            }
        }
        out
    }

    /// R-RUM-6: a legal serving with at least one effect, for "can the team still act?".
    pub(crate) fn has_effective_rum(&self, team: Team) -> bool {
        self.rum_targets(team)
            .any(|c| self.rum_effect_summary(team, c).0)
    }

    /// Serves rum on `at` (checked): one bottle from the acting team's stock, then R-RUM-4.
    /// The turn goes on unless the team can no longer act at all (R-TURN-6).
    pub(super) fn serve_rum(&mut self, at: Cell, ev: &mut Vec<Event>) {
        let team = self.turn;
        self.rum[team.index()] -= 1;
        ev.push(Event::RumServed { team, cell: at });
        let effects = self.rum_effects(team, at);
        for f in effects.fridays {
            self.kill(f, at, DeathCause::Rum, ev);
        }
        for m in effects.missionaries {
            self.convert(m, ev);
        }
        for c in effects.caught {
            self.units[c].trapped = false;
            ev.push(Event::Freed {
                unit: self.units[c].reference(),
            });
        }
        for (u, k) in effects.climbers {
            self.units.set_place(u, Place::Land { cell: at, step: k });
            ev.push(Event::Moved {
                unit: self.units[u].reference(),
                from: at,
                to: at,
                motion: Motion::Advance,
                step: k,
            });
        }
        if !self.can_act(team) {
            self.end_turn(ev);
        }
    }
}
