//! The `easy` level: a greedy player. It tries each legal action, judges the position it
//! leads to (gold home, gold near, gold threatened, units alive: [`super::eval`]) and plays the
//! best. Fatal actions are left out while anything else is legal. An action that opens fog is
//! judged on a few determinisations, since what it finds is a guess; any other action's
//! outcome does not depend on the fog and is judged once. A side down to its last free unit
//! in a duel also weighs, over every kind of tile still unseen, the chance that a step into
//! the fog catches that unit too and so loses the game (R-END-4).

use std::cell::Cell;

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Event, Game, PublicView, Team};

use super::eval::{Prior, STANDARD, Weights, is_caught, rewards};
use super::policy::{Glance, best};
use super::thought::Thought;

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
/// Positions judged in one decision before the judge cuts down: past this many, no more
/// guesses of the fog, and a choice is answered by the option the quick policy likes best,
/// so each action left is judged on one position. Most decisions judge a few dozen; a few
/// (two dozen flights from ice, each landing on fog, each raising a choice) would judge
/// hundreds, several times the level's 10 ms. A position costs about 0.1 ms to reach and
/// judge, so a decision judges at most this many and [`JUDGED`] more, well within 10 ms.
const POSITIONS: u32 = 40;

pub(super) fn think(view: &PublicView, rng: &mut SplitMix64) -> Option<Thought> {
    think_weighed(view, rng, &STANDARD)
}

/// [`think`], judging positions by `weights`.
pub(super) fn think_weighed(
    view: &PublicView,
    rng: &mut SplitMix64,
    weights: &'static Weights,
) -> Option<Thought> {
    let actions = super::candidates(view);
    if actions.len() <= 1 {
        return actions.first().map(|a| Thought::plain(*a));
    }
    let mut judged = judge(view, actions, rng, weights);
    let action = judged[best(judged.len(), rng, |i| judged[i].1)].0;
    judged.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some(Thought {
        action,
        judged,
        search: None,
    })
}

/// The actions worth judging among `actions` (all of them, or those the quick policy likes
/// best when they are too many), each with its expected reward for the mover, judged by
/// `weights`.
pub(super) fn judge(
    view: &PublicView,
    actions: Vec<Action>,
    rng: &mut SplitMix64,
    weights: &'static Weights,
) -> Vec<(Action, f32)> {
    judge_counting(view, actions, rng, weights).0
}

/// [`judge`], and how many positions it judged.
fn judge_counting(
    view: &PublicView,
    mut actions: Vec<Action>,
    rng: &mut SplitMix64,
    weights: &'static Weights,
) -> (Vec<(Action, f32)>, u32) {
    let team = view.controller();
    let prior = Prior::weighed(view, weights);
    let wide = actions.len() > JUDGED;
    let guesses = if wide { WIDE_SAMPLES } else { SAMPLES };
    let samples: Vec<Game> = (0..guesses).map(|_| view.sample(rng)).collect();
    // Best first by the quick policy (and only the best when they are too many), so that if
    // the judge must cut down (see [`POSITIONS`]) it does so on the least promising actions.
    // The glance reads only what the sample shares with the view (open tiles, units).
    actions = Glance::of(&samples[0]).shortlist(&samples[0], &actions, JUDGED);
    let judge = Judge::new(team, prior, POSITIONS);
    let mut scored: Vec<(Action, f32)> = actions
        .into_iter()
        .map(|a| (a, judge.action(&samples, &a)))
        .collect();
    if fragile(&samples[0], team) {
        let mut best: Vec<usize> = (0..scored.len()).collect();
        best.sort_by(|a, b| scored[*b].1.total_cmp(&scored[*a].1));
        for i in best.into_iter().take(RISKED) {
            let (action, score) = &mut scored[i];
            if *score > f32::MIN {
                *score *= 1.0 - strand_risk(view, &samples[0], action, rng);
            }
        }
    }
    (scored, judge.judged.get())
}

/// In a duel, a side down to its last free unit (the others dead or caught) loses at once if
/// that unit is caught too (R-END-4): is `team`'s side there? (Units are the same on every
/// guess of the fog.)
pub(super) fn fragile(game: &Game, team: Team) -> bool {
    game.teams().count() == 2
        && game
            .units()
            .iter()
            .filter(|u| game.allied(u.team, team) && u.alive() && !is_caught(u))
            .count()
            <= 1
}

/// Actions of a fragile side whose risk of losing on the fog is worked out, those judged best:
/// each costs a deal and a play for every kind of unseen tile, about half a millisecond.
const RISKED: usize = 4;

/// The chance that `action` loses the duel on what the fog tile it opens turns out to be
/// (a trap, a cave, a cannibal for the last free unit): each kind of unseen tile is tried on
/// that cell once, weighed by how many of them are unseen. A handful of guesses of the whole
/// fog would most often miss a one-in-forty loss, or make it one in four.
pub(super) fn strand_risk(
    view: &PublicView,
    sample: &Game,
    action: &Action,
    rng: &mut SplitMix64,
) -> f32 {
    let mut first = sample.clone();
    let Ok(events) = first.play(action) else {
        return 0.0;
    };
    let Some(cell) = events.iter().find_map(|e| match e {
        Event::Opened { cell, .. } => Some(*cell),
        _ => None,
    }) else {
        return 0.0;
    };
    let team = view.controller();
    let (mut lost, mut all) = (0u32, 0u32);
    for (kind, count) in view.unseen_counts() {
        let Some(mut game) = view.sample_given(rng, cell, kind) else {
            continue;
        };
        all += u32::from(count);
        if game.play(action).is_ok() && super::eval::lost(&game, team) {
            lost += u32::from(count);
        }
    }
    if all == 0 {
        0.0
    } else {
        lost as f32 / all as f32
    }
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
        let mut guesses = 1;
        for sample in &samples[1..] {
            if self.cut_down() {
                break;
            }
            let mut game = sample.clone();
            total += match game.play(action) {
                Ok(_) => self.position(&game, 1),
                Err(_) => 0.0,
            };
            guesses += 1;
        }
        total / guesses as f32
    }

    /// The reward of a position; a choice left to the same player is answered greedily.
    pub fn position(&self, game: &Game, depth: u32) -> f32 {
        if game.pending().is_some() && game.controller() == self.team && depth <= 2 {
            let mut options = game.legal_actions_unflagged();
            let worth = if self.cut_down() { 1 } else { OPTIONS };
            if options.len() > worth {
                options = Glance::of(game).shortlist(game, &options, worth);
            }
            let mut best = f32::MIN;
            for (k, option) in options.iter().enumerate() {
                // Once cut down, the first option is enough: when there were more than
                // `worth`, the quick policy put the likeliest first.
                if k > 0 && self.cut_down() {
                    break;
                }
                let mut next = game.clone();
                if next.play(option).is_ok() {
                    best = best.max(self.position(&next, depth + 1));
                }
            }
            return best;
        }
        self.judged.set(self.judged.get() + 1);
        rewards(game, &self.prior)[self.team.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Players, Settings, TileKind};

    fn position(text: &str) -> Game {
        crate::scenario::position_after_plays(text)
            .unwrap_or_else(|e| panic!("{e}"))
            .0
    }

    /// Team 1's pirate 2 is trapped and pirate 3 dead: pirate 1 is its last free unit. A step
    /// into the fog loses the duel if the tile is a trap, a cannibal or the only cave, so its
    /// risk is at least the share of those among the unseen tiles; a step onto an open empty
    /// tile risks nothing. With pirate 2 free, the side is not fragile at all.
    #[test]
    fn the_last_free_unit_weighs_the_fog_it_steps_into() {
        let setup = |pirate_2: &str| {
            position(&format!(
                "tile f9 trap\ntile e6 fog empty\ntile j10 fog chest3\nitem k11 coin 5\n\
                 unit 1.1 e5\nunit 1.2 f9 {pirate_2}\nunit 2.1 h9\n"
            ))
        };
        let game = setup("trapped");
        let view = game.public_view();
        let team = view.controller();
        let sample = view.sample(&mut SplitMix64::new(1));
        assert!(fragile(&sample, team));
        assert!(!fragile(
            &setup("").public_view().sample(&mut SplitMix64::new(1)),
            team
        ));
        let step = |to: &str| {
            let to = crate::engine::Cell::parse(to).unwrap();
            *view
                .legal_actions_unflagged()
                .iter()
                .find(|a| matches!(a, Action::Move { to: t, .. } if *t == to))
                .unwrap()
        };
        let mut rng = SplitMix64::new(2);
        let into_fog = strand_risk(&view, &sample, &step("e6"), &mut rng);
        let onto_open = strand_risk(&view, &sample, &step("e4"), &mut rng);
        let counts = view.unseen_counts();
        let all: u16 = counts.iter().map(|(_, n)| n).sum();
        let catching: u16 = counts
            .iter()
            .filter(|(k, _)| matches!(k, TileKind::Trap | TileKind::Cannibal | TileKind::Cave))
            .map(|(_, n)| n)
            .sum();
        assert!(catching > 0);
        let least = f32::from(catching) / f32::from(all);
        assert!(into_fog >= least - 1e-6, "{into_fog} < {least}");
        assert!(into_fog < least + 0.1, "{into_fog}");
        assert_eq!(onto_open, 0.0);
    }

    /// However wide a position, a decision judges [`POSITIONS`] positions, and then one for
    /// each action left: the judge checks the count before each extra guess and each further
    /// option, so the action it is judging passes the mark by no more than a choice within a
    /// choice (one position at each of its two depths).
    #[test]
    fn a_decision_judges_a_bounded_number_of_positions() {
        let past_the_mark = JUDGED as u32 + 2;
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
                let (_, judged) =
                    judge_counting(&view, super::super::candidates(&view), &mut rng, &STANDARD);
                most = most.max(judged);
                let legal = game.legal_actions_unflagged();
                game.play(&legal[rng.pick(legal.len())]).unwrap();
            }
        }
        assert!(most <= POSITIONS + past_the_mark, "{most} positions judged");
        assert!(
            most >= POSITIONS,
            "no position was wide enough to test the cut ({most})"
        );
    }
}
