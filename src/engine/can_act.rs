//! Whether a team can act at all (R-TURN-5, R-TURN-6): asked at the start of every turn, so
//! the plain cases are answered without listing the team's actions.

use std::ops::ControlFlow;

use super::game::Game;
use super::unit::{Place, Team};

/// Is a unit of `enemy_teams` (bits of `team.index()`) where `there` says? One plain pass
/// over the units: the first target asked usually answers.
fn any_enemy(game: &Game, enemy_teams: u8, there: impl Fn(Place) -> bool) -> bool {
    game.units
        .iter()
        .any(|o| enemy_teams & 1 << o.team.index() != 0 && there(o.place))
}

impl Game {
    /// Can `team` make a main action now (judged as if it were its turn)?
    pub(crate) fn can_act(&self, team: Team) -> bool {
        // The usual answer first: an open step needs an able, so living, unit.
        if self.has_open_step(team) {
            return true;
        }
        // Without a living unit a team has nobody to move, sail, resurrect or serve rum: asked
        // on each of its turns once all its pirates are dead.
        if !self.units.iter().any(|u| u.team == team && u.alive()) {
            return false;
        }
        let mut any = false;
        self.visit_main_actions(team, &mut |_| {
            any = true;
            ControlFlow::Break(())
        });
        any || self.has_effective_rum(team)
    }

    /// A sure "yes": an able unit with a target `check_step` cannot refuse empty-handed. From
    /// land (no plane seat) or aboard, a neighbouring land cell without enemies; in a maze short
    /// of its last step, the next step without enemies; swimming, a sea cell without a vessel
    /// or enemies. `false` leaves it to the listing.
    fn has_open_step(&self, team: Team) -> bool {
        let board = self.board;
        let enemy_teams = self.enemy_teams(team);
        let free_land = |to| {
            board.is_land(to)
                && !any_enemy(
                    self,
                    enemy_teams,
                    |p| matches!(p, Place::Land { cell, .. } if cell == to),
                )
        };
        let free_sea = |to| {
            board.is_sea(to)
                && self.vessel_at(to).is_none()
                && !any_enemy(self, enemy_teams, |p| p == Place::Swim(to))
        };
        self.units.iter().any(|u| {
            if u.team != team || !u.able() {
                return false;
            }
            match u.place {
                Place::Land { cell, step } if u.seat.is_none() => {
                    let k = self.maze_steps(cell);
                    if k > 0 && step < k {
                        let next = Place::Land {
                            cell,
                            step: step + 1,
                        };
                        !any_enemy(self, enemy_teams, |p| p == next)
                    } else {
                        board.neighbours(cell).any(free_land)
                    }
                }
                Place::Aboard(v) => {
                    let vessel = &self.vessels[v];
                    if vessel.boat {
                        board.neighbours(vessel.cell).any(free_land)
                    } else {
                        board.front_cell(vessel.cell).is_some_and(free_land)
                    }
                }
                Place::Swim(cell) => board.neighbours(cell).any(free_sea),
                _ => false,
            }
        })
    }
}
