//! Bots: a position as its players see it in, an action out.
//!
//! A bot is handed a [`PublicView`], never the game: open tiles, units, items, scores and the
//! counts of the tiles still unseen, but not what lies under the fog nor the map's seed. The
//! levels that look ahead play on determinisations, fog drawn from the unseen tiles by the
//! bot's own generator, so what a bot does cannot depend on the hidden map. Decisions are
//! seeded: the same view, level, seed (and, for `normal` and `hard`, a budget counted in playouts) give
//! the same action.
//!
//! - `random` ([`random`]): any legal action;
//! - `easy` ([`easy`]): greedy, judging each action's outcome ([`eval`]);
//! - `normal` ([`normal`]): easy's best few actions played out over determinisations, every
//!   player answering greedily for four of the mover's turns, within a time budget;
//! - `hard` ([`hard`]): normal's search on more candidates, which join as its rounds add up,
//!   and once those settle, on easy's lower-ranked actions one by one; trusting the rounds
//!   more as they add up, with twice normal's default time;
//! - [`policy`]: a quick glance at actions, to choose which are worth judging in full.

mod easy;
mod eval;
mod hard;
mod level;
mod normal;
mod policy;
mod random;
mod reach;
mod thought;

use std::time::Duration;

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Game, PublicView, Team};

pub use level::{BotLevel, UnknownLevel};
pub use thought::{CandidateReport, SearchReport, Thought};

/// How long the searching levels (`normal`, `hard`) may think about one move (the others need
/// no budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The search stops when this is spent, or earlier when its choice can no longer change.
    pub time: Duration,
    /// And after this many playouts, if given: a decision that does not depend on the
    /// machine's speed (tests, reproducible runs).
    pub playouts: Option<u32>,
}

impl Budget {
    pub const DEFAULT_TIME: Duration = Duration::from_secs(1);
    /// No bot keeps a game waiting longer than this for a move.
    pub const MAX_TIME: Duration = Duration::from_secs(2);

    /// A budget of `time` (at most [`Budget::MAX_TIME`]).
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: time.min(Budget::MAX_TIME),
            playouts: None,
        }
    }

    /// A budget of `playouts` playouts, whatever they take (up to [`Budget::MAX_TIME`]).
    pub fn playouts(playouts: u32) -> Budget {
        Budget {
            time: Budget::MAX_TIME,
            playouts: Some(playouts),
        }
    }
}

impl Budget {
    /// The budget a level thinks within when none is given: `hard` takes the longest any
    /// bot may, the other levels the default (and `random` and `easy` need none).
    pub fn of_level(level: BotLevel) -> Budget {
        match level {
            BotLevel::Hard => Budget::time(Budget::MAX_TIME),
            BotLevel::Random | BotLevel::Easy | BotLevel::Normal => Budget::default(),
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::time(Budget::DEFAULT_TIME)
    }
}

/// A bot: how well it plays, the seed of its decisions, and its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bot {
    pub level: BotLevel,
    pub seed: u64,
    pub budget: Budget,
}

impl Bot {
    /// A bot of `level` seeded by `seed`, with its level's budget ([`Budget::of_level`]).
    pub fn new(level: BotLevel, seed: u64) -> Bot {
        Bot {
            level,
            seed,
            budget: Budget::of_level(level),
        }
    }
}

/// Why a bot made no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoMove {
    #[error("the game is over")]
    GameOver,
    /// The rules skip such a turn (R-TURN-5), so a game in play never asks this; the caller
    /// gets it as a value all the same.
    #[error("team {team} has no legal action")]
    NoLegalAction { team: Team },
}

/// The bot's action for the player commanding the turn of `view`.
pub fn decide(view: &PublicView, bot: &Bot) -> Result<Action, NoMove> {
    think(view, bot).map(|thought| thought.action)
}

/// [`decide`], with what the bot weighed on the way (easy's judgement of each action, the
/// search's rounds): the same action, from the same questions asked in the same order.
pub fn think(view: &PublicView, bot: &Bot) -> Result<Thought, NoMove> {
    if view.is_over() {
        return Err(NoMove::GameOver);
    }
    // One generator per decision, from the bot's seed and the ply: the same position asks the
    // same questions of the same bot.
    let mut rng = SplitMix64::new(bot.seed ^ (view.ply() as u64).wrapping_mul(0x9E37_79B9));
    let thought = match bot.level {
        BotLevel::Random => random::choose(view, &mut rng).map(Thought::plain),
        BotLevel::Easy => easy::think(view, &mut rng),
        BotLevel::Normal => normal::think(view, &mut rng, bot.budget),
        BotLevel::Hard => hard::think(view, &mut rng, bot.budget),
    };
    thought.ok_or(NoMove::NoLegalAction {
        team: view.controller(),
    })
}

/// [`decide`] for a caller holding the whole game (tools and tests): the bot still only sees
/// the game's public view. `None` when there is no move.
pub fn choose(game: &Game, level: BotLevel, seed: u64) -> Option<Action> {
    decide(&game.public_view(), &Bot::new(level, seed)).ok()
}

/// The actions worth considering: the legal ones that are not surely fatal (R-CHAIN-9), or
/// all of them when every one is.
fn candidates(view: &PublicView) -> Vec<Action> {
    let legal = view.legal_actions();
    let safe: Vec<Action> = legal
        .iter()
        .filter(|l| !l.fatal)
        .map(|l| l.action)
        .collect();
    if safe.is_empty() {
        legal.into_iter().map(|l| l.action).collect()
    } else {
        safe
    }
}

#[cfg(test)]
mod tests;
