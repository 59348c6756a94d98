//! The `hard` level: normal's search ([`super::normal`]), shaped to make more of its budget.
//!
//! Normal spends a longer budget on more rounds of the same few candidates; but its rounds are
//! often the same playout over again (late in a game the fog hardly changes one, and every
//! player answers greedily: `jackal think` shows gains of ± 0.00000 after five rounds), so
//! rounds beyond the first few add little. Hard spends them on breadth instead:
//!
//! - more candidates (eight of easy's favourites and the best of three movers those leave
//!   out), joining a few at a time as the rounds add up ([`Plan::widening`]);
//! - a reserve of twelve more of easy's actions, which join one by one whenever the
//!   candidates played so far have settled, instead of the search stopping there
//!   ([`Plan::reserve`]): a settled search goes on to look at what easy ranked lower;
//! - each candidate's measured gain shrunk towards easy's judgement by how noisy it still is
//!   ([`Choice::Shrunk`]), so that many rounds are trusted though no gain stands two standard
//!   errors clear, as normal waits for;
//! - in a game of more than two teams, playouts of two of the mover's turns, not four
//!   ([`Plan::turns_among_many`]): each turn of the mover's is followed by two or three
//!   greedy replies, so a four-turn playout of four players is sixteen decisions long,
//!   costly and noisy; half as long, twice as many fit in the same time (against three
//!   `normal`, hard won 40 % of 40 games this way and 30 % with four turns at the same CPU
//!   a move: not a significant difference, measured in `docs/bots.md`);
//! - twice normal's default time.

use crate::engine::PublicView;
use crate::engine::mapgen::SplitMix64;

use super::Budget;
use super::normal::{self, Choice, Plan};
use super::thought::Thought;

/// `hard`'s search.
const HARD: Plan = Plan {
    candidates: 8,
    other_movers: 3,
    turns: 4,
    turns_among_many: 2,
    replies_judged: 12,
    choice: Choice::Shrunk { spread: 0.03 },
    widening: Some((4, 2)),
    reserve: 12,
};

pub(super) fn think(view: &PublicView, rng: &mut SplitMix64, budget: Budget) -> Option<Thought> {
    normal::search(view, rng, budget, &HARD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Players, Settings};

    fn view(players: Players) -> PublicView {
        let settings = Settings {
            players,
            ..Settings::default()
        };
        Game::new(settings, 5).unwrap().public_view()
    }

    /// Hard's playouts cover two of the mover's turns where two or three others reply to
    /// each (three or four players, two against two), and four in a duel; normal's four
    /// everywhere.
    #[test]
    fn hard_plays_shorter_playouts_among_many_players() {
        assert_eq!(HARD.turns_in(&view(Players::Two)), 4);
        assert_eq!(HARD.turns_in(&view(Players::Three)), 2);
        assert_eq!(HARD.turns_in(&view(Players::Four)), 2);
        assert_eq!(HARD.turns_in(&view(Players::TwoVsTwo)), 2);
        for players in [
            Players::Two,
            Players::Three,
            Players::Four,
            Players::TwoVsTwo,
        ] {
            assert_eq!(normal::NORMAL.turns_in(&view(players)), 4);
        }
    }
}
