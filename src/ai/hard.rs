//! The `hard` level: normal's search ([`super::normal`]), shaped to make more of its budget.

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
    replies_judged: 12,
    choice: Choice::Shrunk { spread: 0.03 },
    widening: Some((4, 2)),
};

pub(super) fn think(view: &PublicView, rng: &mut SplitMix64, budget: Budget) -> Option<Thought> {
    normal::search(view, rng, budget, &HARD)
}
