//! The turn structure (R-TURN), playing an action, and the end of the game (R-END).

use super::action::Action;
use super::board::Cell;
use super::error::{ErrorKind, IllegalAction};
use super::event::{EndReason, Event, Outcome};
use super::game::Game;
use super::unit::{Place, Team, UnitId, UnitRef};

impl Game {
    /// Plays one action for the side to move and returns what happened, in order. An illegal
    /// action is refused with the reason and leaves the game untouched.
    pub fn play(&mut self, action: &Action) -> Result<Vec<Event>, IllegalAction> {
        let mover = self
            .check_kind(action)
            .map_err(|kind| IllegalAction::with(kind, self.detail_of(action, kind)))?;
        let mut ev = Vec::with_capacity(8);
        self.apply_checked(action, mover, &mut ev);
        Ok(ev)
    }

    /// Plays an action already known to be legal.
    pub(crate) fn apply(&mut self, action: &Action, ev: &mut Vec<Event>) {
        self.apply_checked(action, None, ev);
    }

    /// [`Game::apply`], told the unit a move's check found (`None`: looked up here).
    fn apply_checked(&mut self, action: &Action, mover: Option<UnitId>, ev: &mut Vec<Event>) {
        let ev = &mut *ev;
        self.ply += 1;
        match *action {
            Action::Move { unit, to, cargo } => {
                let u = mover
                    .or_else(|| {
                        self.find_unit(UnitRef {
                            team: self.turn,
                            kind: unit,
                        })
                    })
                    .expect("checked");
                self.start_unit_move(u, to, cargo, ev);
            }
            Action::Choose { cell, cargo } => {
                if self.pending.as_ref().is_some_and(|p| p.chain.is_some()) {
                    self.resume_chain(cell, cargo, ev);
                } else {
                    self.answer_after_chain(cell, ev);
                }
            }
            Action::Ship { to } => {
                let v = self.main_ship(self.turn).expect("checked");
                self.move_vessel(v, to, ev);
            }
            Action::Boat { from, to } => {
                let v = self.vessel_at(from).expect("checked");
                self.move_vessel(v, to, ev);
            }
            Action::Resurrect { at } => {
                self.resurrect(at, ev);
                self.end_turn(ev);
            }
            Action::Rum { at } => self.serve_rum(at, ev),
            Action::Pass => {
                ev.push(Event::TurnPassed { team: self.turn });
                self.end_turn(ev);
            }
        }
    }

    /// Would this action be accepted now? The first error in the order of S-NOT-4.
    pub fn check(&self, action: &Action) -> Result<(), IllegalAction> {
        self.check_kind(action)
            .map(|_| ())
            .map_err(|kind| IllegalAction::with(kind, self.detail_of(action, kind)))
    }

    /// [`Game::check`]'s error kind alone; for a legal move, the unit that makes it (so
    /// `play` need not look it up again).
    fn check_kind(&self, action: &Action) -> Result<Option<UnitId>, ErrorKind> {
        // An action read from JSON (an import, a stored row) may name a cell of another
        // board: the same as a word that is not a cell of this board in notation (S-NOT-3).
        if !action.cells().all(|c| self.board.exists(c)) {
            return Err(ErrorKind::Syntax);
        }
        if self.outcome.is_some() {
            return Err(ErrorKind::GameOver);
        }
        let pending = self.pending.is_some();
        match (action, pending) {
            (Action::Choose { .. }, false) => return Err(ErrorKind::NoChoicePending),
            (Action::Choose { .. }, true) => {}
            (_, true) => return Err(ErrorKind::ChoicePending),
            _ => {}
        }
        let team = self.turn;
        let checked = match *action {
            Action::Move { unit, to, cargo } => {
                return self.check_move(team, unit, to, cargo).map(Some);
            }
            Action::Choose { cell, cargo } => {
                let offered = self.is_choice_option(cell, cargo);
                debug_assert_eq!(offered, self.choice_options().contains(action));
                if offered {
                    Ok(())
                } else {
                    Err(ErrorKind::BadChoice)
                }
            }
            Action::Ship { to } => match self.main_ship(team) {
                Some(v) => self.check_vessel_move(team, v, to),
                None => Err(ErrorKind::VesselCannotMove),
            },
            Action::Boat { from, to } => match self.vessel_at(from) {
                Some(v) if self.vessels[v].boat => self.check_vessel_move(team, v, to),
                _ => Err(ErrorKind::VesselCannotMove),
            },
            Action::Resurrect { at } => {
                if self.resurrection_cells(team).contains(&at) {
                    Ok(())
                } else {
                    Err(ErrorKind::NoResurrection)
                }
            }
            Action::Rum { at } => self.check_rum(team, at),
            // A pending choice is answered first (above); otherwise a turn can always pass.
            Action::Pass => Ok(()),
        };
        checked.map(|()| None)
    }

    /// R-RESFORT-2: the lowest-numbered dead ordinary pirate comes back in the fortress.
    fn resurrect(&mut self, at: Cell, ev: &mut Vec<Event>) {
        let team = self.turn;
        let dead = self
            .units
            .enumerate()
            .filter(|(_, u)| u.team == team && u.kind.is_pirate() && !u.alive())
            .min_by_key(|(_, u)| u.kind)
            .map(|(i, _)| i)
            .expect("checked");
        self.units.set_place(dead, Place::land(at));
        ev.push(Event::Resurrected {
            unit: self.units[dead].reference(),
            at,
        });
    }

    /// R-TURN-7: end of the acting team's turn, then the next turn starts.
    pub(crate) fn end_turn(&mut self, ev: &mut Vec<Event>) {
        self.close_turn(ev);
        if self.outcome.is_none() {
            self.turn = self.next_team(self.turn);
            self.start(ev);
        }
    }

    /// R-TURN-7 (a)–(d).
    fn close_turn(&mut self, ev: &mut Vec<Event>) {
        let team = self.turn;
        for unit in self.units.iter_mut() {
            if unit.team == team && unit.sobers_this_turn {
                unit.sobers_this_turn = false;
                if unit.drunk {
                    unit.drunk = false;
                    ev.push(Event::Sobered {
                        unit: unit.reference(),
                    });
                }
            }
        }
        if self.weed_turn {
            self.weed = self.weed.saturating_sub(1);
            self.weed_turn = false;
        }
        // (c) eliminations.
        self.eliminate_sides_without_vessels(ev);
        // (d) end checks.
        if self.progress {
            self.stall = 0;
        } else {
            // With the guard off (`stall_rounds = 0`) nothing ends a stall: the counter stops
            // at its limit rather than wrap round to 0.
            self.stall = self.stall.saturating_add(1);
        }
        self.progress = false;
        if let Some(outcome) = self.uncatchable_check() {
            self.finish(outcome, ev);
            return;
        }
        if self.turns_before_stall() == Some(0) {
            let outcome = self.outcome_by_score(EndReason::Stall);
            self.finish(outcome, ev);
        }
    }

    fn finish(&mut self, outcome: Outcome, ev: &mut Vec<Event>) {
        self.pending = None;
        ev.push(Event::GameOver(outcome.clone()));
        self.outcome = Some(outcome);
    }

    /// The next team in turn order that is in play (R-SEAT-2).
    fn next_team(&self, team: Team) -> Team {
        let count = self.settings.players.team_count();
        let mut t = team.number();
        for _ in 0..count {
            t = t % count + 1;
            let next = Team::of(t);
            if !self.is_eliminated(next) {
                return next;
            }
        }
        team
    }

    /// R-TURN-5: start of a turn, repeating for skipped turns.
    pub(crate) fn start(&mut self, ev: &mut Vec<Event>) {
        loop {
            let team = self.turn;
            for unit in self.units.iter_mut() {
                if unit.team == team && unit.drunk {
                    unit.sobers_this_turn = true;
                }
            }
            self.weed_turn = self.weed > 0;
            if !self.probe {
                ev.push(Event::TurnStarted { team });
            }
            if self.can_act(team) {
                return;
            }
            let own_drunk = self
                .units
                .iter()
                .any(|u| u.team == team && u.alive() && u.drunk);
            // (a) duel early win.
            if self.settings.players == super::settings::Players::Two && !own_drunk {
                let winner = self.next_team(team);
                let outcome = Outcome {
                    winners: self.side_of(winner),
                    draw: false,
                    reason: EndReason::NoMoves,
                };
                self.finish(outcome, ev);
                return;
            }
            // (b) all disabled.
            // `team` was just found unable: only the others are asked.
            let any_drunk = self.units.iter().any(|u| u.alive() && u.drunk);
            if !any_drunk && self.teams_in_play().all(|t| t == team || !self.can_act(t)) {
                let outcome = self.outcome_by_score(EndReason::Disabled);
                self.finish(outcome, ev);
                return;
            }
            // (c) skipped.
            ev.push(Event::TurnSkipped { team });
            self.close_turn(ev);
            if self.outcome.is_some() {
                return;
            }
            self.turn = self.next_team(team);
        }
    }

    /// Sides in contention with their scores, one entry per side (named by its lowest team),
    /// in a fixed-size list: this runs at the end of every turn.
    fn side_scores(&self) -> ([(Team, u32); 4], usize) {
        let mut out = [(Team::of(1), 0); 4];
        let mut n = 0;
        let teams_are_sides = self.settings.players != super::settings::Players::TwoVsTwo;
        // A plain loop over the team numbers: the iterators of `teams_in_play` cost more here.
        for (i, &t) in Team::ALL[..self.settings.players.team_count() as usize]
            .iter()
            .enumerate()
        {
            if self.eliminated[i] {
                continue;
            }
            if teams_are_sides {
                out[n] = (t, self.scores[i]);
                n += 1;
                continue;
            }
            let first = self.side_key(t);
            if !out[..n].iter().any(|(s, _)| *s == first) {
                out[n] = (first, self.side_score(t));
                n += 1;
            }
        }
        (out, n)
    }

    /// R-END-3 (a)–(c).
    fn uncatchable_check(&self) -> Option<Outcome> {
        let (sides, n) = self.side_scores();
        let sides = &sides[..n];
        if sides.len() == 1 {
            return Some(Outcome {
                winners: self.side_of(sides[0].0),
                draw: false,
                reason: EndReason::Sunk,
            });
        }
        let g = self.remaining_gold();
        if g == 0 {
            return Some(self.outcome_by_score(EndReason::Uncatchable));
        }
        let (leader, best) = *sides.iter().max_by_key(|(_, s)| *s)?;
        let uncatchable = sides
            .iter()
            .filter(|(s, _)| *s != leader)
            .all(|(_, s)| best > s.saturating_add(g));
        uncatchable.then(|| Outcome {
            winners: self.side_of(leader),
            draw: false,
            reason: EndReason::Uncatchable,
        })
    }

    /// R-END-3 (c): the highest score wins; a shared highest score is a draw.
    fn outcome_by_score(&self, reason: EndReason) -> Outcome {
        let (sides, n) = self.side_scores();
        let sides = &sides[..n];
        let best = sides.iter().map(|(_, s)| *s).max().unwrap_or(0);
        let top: Vec<Team> = sides
            .iter()
            .filter(|(_, s)| *s == best)
            .flat_map(|(t, _)| self.side_of(*t))
            .collect();
        Outcome {
            draw: sides.iter().filter(|(_, s)| *s == best).count() > 1,
            winners: top,
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ErrorKind;

    fn game(text: &str) -> Game {
        crate::scenario::position_after_plays(text).unwrap().0
    }

    /// A turn passed (the `skip` timeout policy) ends as a skipped turn does: the next team
    /// moves, the stall counter grows, a drunk unit of the team sobers (R-TURN-7).
    #[test]
    fn a_passed_turn_ends_like_a_skipped_one() {
        let mut g = game("tile d10 fog chest1\nunit 1.1 e5 drunk\nunit 1.2 k3\nunit 2.1 k11\n");
        assert!(!g.legal_actions().iter().any(|l| l.action == Action::Pass));
        let events = g.play(&Action::Pass).unwrap();
        assert!(events.contains(&Event::TurnPassed { team: Team::of(1) }));
        assert_eq!(g.turn(), Team::of(2));
        assert_eq!(g.stall(), 1);
        let drunk = g.unit(UnitRef {
            team: Team::of(1),
            kind: crate::engine::UnitKind::Pirate(1),
        });
        assert!(!drunk.unwrap().drunk);
    }

    /// A pending choice is answered first: a turn half played cannot pass. Nor can a player
    /// type a pass.
    #[test]
    fn a_pass_waits_for_the_pending_choice_and_is_no_notation() {
        let g =
            game("tile e5 arrow e+w\ntile d10 fog chest1\nunit 1.1 e4\nunit 2.1 k11\nplay 1 e5\n");
        assert!(g.pending().is_some());
        assert_eq!(
            g.check(&Action::Pass).unwrap_err().kind,
            ErrorKind::ChoicePending
        );
        let g = game("tile d10 fog chest1\n");
        assert_eq!(g.parse_action("pass"), Err(ErrorKind::Syntax));
        assert_eq!(g.notation(&Action::Pass), "pass");
    }
}
