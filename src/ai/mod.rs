//! Bots: a position in, an action out, from public information only.
//!
//! Today there is one level, `random`: a uniformly random legal action, drawn from a
//! generator seeded by the caller so a bot's game replays exactly. Stronger levels come with
//! the bots issue.

use serde::{Deserialize, Serialize};

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, Game};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    Random,
}

impl BotLevel {
    pub const ALL: [BotLevel; 1] = [BotLevel::Random];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
        }
    }

    pub fn parse(text: &str) -> Option<BotLevel> {
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
    }
}

/// The bot's action for the side to move, or `None` when there is nothing to do (game over).
/// The same game, level and seed always give the same action.
pub fn choose(game: &Game, level: BotLevel, seed: u64) -> Option<Action> {
    let legal = game.legal_actions_unflagged();
    if legal.is_empty() {
        return None;
    }
    match level {
        BotLevel::Random => {
            let mut rng = SplitMix64::new(seed ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9));
            let i = rng.below(legal.len() as u64) as usize;
            Some(legal[i])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Pack, Settings};

    #[test]
    fn random_bot_plays_a_whole_game_deterministically() {
        let settings = Settings {
            board_size: 7,
            tile_pack: Pack::Classic,
            ..Settings::default()
        };
        let run = || {
            let mut g = Game::new(settings.clone(), 5).unwrap();
            let mut n = 0;
            while let Some(a) = choose(&g, BotLevel::Random, 77) {
                g.play(&a).unwrap();
                n += 1;
            }
            (g, n)
        };
        let (a, n) = run();
        assert!(a.is_over());
        assert!(n > 0);
        assert_eq!(run().0, a);
    }
}
