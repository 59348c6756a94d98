//! The `easy` level: a greedy player. It tries each legal action, judges the position it
//! leads to (gold home, gold near, gold threatened, units alive: [`super::eval`]) and plays the
//! best. Fatal actions are left out while anything else is legal. An action that opens fog is
//! judged on a few determinisations, since what it finds is a guess; any other action's
//! outcome does not depend on the fog and is judged once.

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
    mut actions: Vec<Action>,
    rng: &mut SplitMix64,
) -> Vec<(Action, f32)> {
    let team = view.controller();
    let prior = Prior::of(view);
    let wide = actions.len() > JUDGED;
    let guesses = if wide { WIDE_SAMPLES } else { SAMPLES };
    let samples: Vec<Game> = (0..guesses).map(|_| view.sample(rng)).collect();
    if wide {
        // The glance reads only what the sample shares with the view (open tiles, units).
        actions = Glance::of(&samples[0]).shortlist(&samples[0], &actions, JUDGED);
    }
    let judge = Judge { team, prior };
    actions
        .into_iter()
        .map(|a| (a, judge.action(&samples, &a)))
        .collect()
}

pub(super) struct Judge {
    pub team: Team,
    pub prior: Prior,
}

impl Judge {
    /// The action's expected reward over the guesses of the fog.
    pub fn action(&self, samples: &[Game], action: &Action) -> f32 {
        let mut first = samples[0].clone();
        let Ok(events) = first.play(action) else {
            return f32::MIN;
        };
        if !events.iter().any(|e| matches!(e, Event::Opened { .. })) {
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
            if options.len() > OPTIONS {
                options = Glance::of(game).shortlist(game, &options, OPTIONS);
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
        rewards(game, &self.prior)[self.team.index()]
    }
}
