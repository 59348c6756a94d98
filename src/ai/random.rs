//! The `random` level: any legal action, uniformly.

use crate::engine::mapgen::SplitMix64;
use crate::engine::{Action, PublicView};

pub(super) fn choose(view: &PublicView, rng: &mut SplitMix64) -> Option<Action> {
    let legal = view.legal_actions_unflagged();
    (!legal.is_empty()).then(|| legal[rng.pick(legal.len())])
}
