//! Whether a team can act at all (R-TURN-5, R-TURN-6): asked at the start of every turn, so
//! the plain cases are answered without listing the team's actions.

use std::ops::ControlFlow;

use super::game::Game;
use super::unit::{Place, Team};

/// What the turn start's pass over a team's units found, from the least to the most.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Crew {
    /// No living unit.
    Nobody,
    /// Living units, none of them able (drunk, caught or stuck).
    Living,
    /// An able unit, without a sure open step.
    Able,
    /// An able unit with an open step: the team can act.
    OpenStep,
}

/// Is a unit of `enemy_teams` (bits of `team.index()`) where `there` says? One plain pass
/// over the units, for the maze steps the sets of cells cannot tell apart.
fn any_enemy(game: &Game, enemy_teams: u8, there: impl Fn(Place) -> bool) -> bool {
    game.units
        .iter()
        .any(|o| enemy_teams & 1 << o.team.index() != 0 && there(o.place))
}

impl Game {
    /// Can `team` make a main action now (judged as if it were its turn)?
    pub(crate) fn can_act(&self, team: Team) -> bool {
        // The usual answer first: an open step needs an able, so living, unit.
        let crew = match self.open_step(team) {
            Crew::OpenStep => return true,
            crew => crew,
        };
        // Without a living unit a team has nobody to move, sail, resurrect or serve rum: asked
        // on each of its turns once all its pirates are dead.
        if crew == Crew::Nobody {
            return false;
        }
        // Every main action needs an able unit: a move its own, a vessel an able sailor aboard,
        // a resurrection an able one in the fortress. A team whose living units are all
        // drunk, caught or stuck (most of the teams the open step does not answer for) has
        // only rum left, and is spared the listing.
        if crew == Crew::Able {
            let mut any = false;
            self.visit_main_actions(team, &mut |_| {
                any = true;
                ControlFlow::Break(())
            });
            if any {
                return true;
            }
        }
        self.has_effective_rum(team)
    }

    /// A sure "yes" ([`Crew::OpenStep`]): an able unit with a target `check_step` cannot refuse
    /// empty-handed. From land (no plane seat) or aboard, a neighbouring land cell without
    /// enemies; in a maze short of its last step, the next step without enemies; swimming, a
    /// sea cell without a vessel or enemies. Otherwise what the same pass over the units saw
    /// of the team, for the rest of [`Game::can_act`].
    fn open_step(&self, team: Team) -> Crew {
        let board = self.board;
        let enemy_teams = self.enemy_teams(team);
        let cells = self.units.cells();
        let free_land = |to| board.is_land(to) && !cells.any_of(enemy_teams, to);
        let free_sea =
            |to| board.is_sea(to) && self.vessel_at(to).is_none() && !cells.any_of(enemy_teams, to);
        let mut crew = Crew::Nobody;
        let open = self.units.iter().any(|u| {
            if u.team != team || !u.alive() {
                return false;
            }
            if !u.able() {
                crew = crew.max(Crew::Living);
                return false;
            }
            crew = Crew::Able;
            match u.place {
                Place::Land { cell, step } if u.seat.is_none() => {
                    let k = self.maze_steps(cell);
                    if k > 0 && step < k {
                        let next = Place::Land {
                            cell,
                            step: step + 1,
                        };
                        !cells.any_of(enemy_teams, cell)
                            || !any_enemy(self, enemy_teams, |p| p == next)
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
        });
        if open { Crew::OpenStep } else { crew }
    }
}
