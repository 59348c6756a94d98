//! The `easy` level: a greedy player. It tries each legal action, judges the position it
//! leads to (gold home, gold near, gold threatened, units alive: [`super::eval`]) and plays the
//! best. Fatal actions are left out while anything else is legal. An action that opens fog is
//! judged on a few determinisations, since what it finds is a guess; any other action's
//! outcome does not depend on the fog and is judged once.

use std::cell::Cell;

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Event, Game, PublicView, Team};

use super::eval::{Prior, rewards};
use super::policy::{Glance, best};

/// Guesses of the fog an action that opens a tile is judged on.
const SAMPLES: usize = 4;
/// Fewer guesses when the actions are too many to judge every one ([`JUDGED`]): a flight
/// lands on fog almost everywhere, and four guesses for each of 24 landings would not fit
/// the level's 10 ms.
const WIDE_SAMPLES: usize = 2;
/// A choice raised by the action (a fork, a horse, ice) is answered by trying the options the
/// quick policy likes best, this many of them: judging every option of every such action
/// would not fit the level's few milliseconds.
const OPTIONS: usize = 3;
/// Actions judged in full at most. A position can offer a hundred (a flight from ice lands
/// on any land cell, and most of them open fog): those the quick policy likes best are
/// judged, so that a move stays within the level's few milliseconds.
const JUDGED: usize = 24;
/// Positions judged in one decision before the judge cuts down: past this many, an action
/// that opens fog is judged on one guess, and a choice it raises on the option the quick
/// policy likes best. Most decisions judge a few dozen; a few (two dozen flights from ice,
/// each landing on fog, each raising a choice) would judge hundreds, several times the
/// level's 10 ms.
const POSITIONS: u32 = 80;

pub(super) fn choose(view: &PublicView, rng: &mut SplitMix64) -> Option<Action> {
    let actions = super::candidates(view);
    if actions.len() <= 1 {
        return actions.first().copied();
    }
    let scored = judge(view, actions, rng);
    Some(scored[best(scored.len(), rng, |i| scored[i].1)].0)
}

/// The actions worth judging among `actions` (all of them, or those the quick policy likes
/// best when they are too many), each with its expected reward for the mover.
pub(super) fn judge(
    view: &PublicView,
    actions: Vec<Action>,
    rng: &mut SplitMix64,
) -> Vec<(Action, f32)> {
    judge_counting(view, actions, rng).0
}

/// [`judge`], and how many positions it judged.
fn judge_counting(
    view: &PublicView,
    mut actions: Vec<Action>,
    rng: &mut SplitMix64,
) -> (Vec<(Action, f32)>, u32) {
    let team = view.controller();
    let prior = Prior::of(view);
    let wide = actions.len() > JUDGED;
    let guesses = if wide { WIDE_SAMPLES } else { SAMPLES };
    let samples: Vec<Game> = (0..guesses).map(|_| view.sample(rng)).collect();
    // Best first by the quick policy (and only the best when they are too many), so that if
    // the judge must cut down (see [`POSITIONS`]) it does so on the least promising actions.
    // The glance reads only what the sample shares with the view (open tiles, units).
    actions = Glance::of(&samples[0]).shortlist(&samples[0], &actions, JUDGED);
    let judge = Judge::new(team, prior, POSITIONS);
    let scored = actions
        .into_iter()
        .map(|a| (a, judge.action(&samples, &a)))
        .collect();
    (scored, judge.judged.get())
}

pub(super) struct Judge {
    team: Team,
    prior: Prior,
    /// Positions judged so far, and how many before cutting down (see [`POSITIONS`]).
    judged: Cell<u32>,
    positions: u32,
}

impl Judge {
    /// A judge for `team` that cuts down after `positions` positions (`u32::MAX`: never).
    pub fn new(team: Team, prior: Prior, positions: u32) -> Judge {
        Judge {
            team,
            prior,
            judged: Cell::new(0),
            positions,
        }
    }

    fn cut_down(&self) -> bool {
        self.judged.get() >= self.positions
    }

    /// The action's expected reward over the guesses of the fog.
    pub fn action(&self, samples: &[Game], action: &Action) -> f32 {
        let mut first = samples[0].clone();
        let Ok(events) = first.play(action) else {
            return f32::MIN;
        };
        if self.cut_down() || !events.iter().any(|e| matches!(e, Event::Opened { .. })) {
            return self.position(&first, 1);
        }
        let mut total = self.position(&first, 1);
        for sample in &samples[1..] {
            let mut game = sample.clone();
            total += match game.play(action) {
                Ok(_) => self.position(&game, 1),
                Err(_) => 0.0,
            };
        }
        total / samples.len() as f32
    }

    /// The reward of a position; a choice left to the same player is answered greedily.
    pub fn position(&self, game: &Game, depth: u32) -> f32 {
        if game.pending().is_some() && game.controller() == self.team && depth <= 2 {
            let mut options = game.legal_actions_unflagged();
            let worth = if self.cut_down() { 1 } else { OPTIONS };
            if options.len() > worth {
                options = Glance::of(game).shortlist(game, &options, worth);
            }
            return options
                .iter()
                .map(|o| {
                    let mut next = game.clone();
                    match next.play(o) {
                        Ok(_) => self.position(&next, depth + 1),
                        Err(_) => f32::MIN,
                    }
                })
                .fold(f32::MIN, f32::max);
        }
        self.judged.set(self.judged.get() + 1);
        rewards(game, &self.prior)[self.team.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Players, Settings};

    /// However wide a position, a decision judges about [`POSITIONS`] positions at most: the
    /// judge checks the count before each extra guess and each choice, so it passes the mark
    /// by less than one action's worth (every guess, every option of every choice it raises).
    #[test]
    fn a_decision_judges_a_bounded_number_of_positions() {
        let one_action = (SAMPLES * (1 + OPTIONS + OPTIONS * OPTIONS)) as u32;
        let settings = Settings {
            tile_pack: Pack::Full,
            players: Players::Four,
            ..Settings::default()
        };
        let mut most = 0;
        for seed in 1..4 {
            let mut game = Game::new(settings.clone(), seed).unwrap();
            let mut rng = SplitMix64::new(seed);
            while !game.is_over() && game.ply() < 400 {
                let view = game.public_view();
                let (_, judged) = judge_counting(&view, super::super::candidates(&view), &mut rng);
                most = most.max(judged);
                let legal = game.legal_actions_unflagged();
                game.play(&legal[rng.pick(legal.len())]).unwrap();
            }
        }
        assert!(most <= POSITIONS + one_action, "{most} positions judged");
        assert!(
            most >= POSITIONS,
            "no position was wide enough to test the cut ({most})"
        );
    }
}
