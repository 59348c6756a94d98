//! What a bot weighed to reach its decision, for the people tuning it: `jackal think` prints
//! it for any position of a scenario or a recorded arena game.

use crate::engine::Action;

/// A decision and the judgement behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The action played: the one [`super::decide`] returns for the same view and bot.
    pub action: Action,
    /// The actions easy's greedy judgement weighed, each with its expected reward for the
    /// mover (0 lost … 1 won), best first; empty for `random`, and for a position with one
    /// action.
    pub judged: Vec<(Action, f32)>,
    /// The search's account (`normal` only, when it had more than one candidate).
    pub search: Option<SearchReport>,
}

/// How `normal`'s search went.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// Whole rounds (one guess of the fog, every candidate still in play played on it).
    pub rounds: usize,
    /// Playouts played, rounds cut short included.
    pub playouts: u32,
    /// The candidates, easy's favourite first.
    pub candidates: Vec<CandidateReport>,
}

/// One candidate of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateReport {
    pub action: Action,
    /// Rounds it was played in.
    pub rounds: u32,
    /// Its mean reward over those rounds.
    pub mean: f32,
    /// Its mean gain over easy's favourite in the rounds both were played in, and the
    /// standard error of that mean (`None` for the favourite, or before two such rounds).
    pub gain: Option<(f32, f32)>,
    /// Dropped before the end, clearly behind another candidate.
    pub dropped: bool,
    /// The one played.
    pub chosen: bool,
}

impl Thought {
    /// The only action there was: nothing weighed.
    pub(super) fn plain(action: Action) -> Thought {
        Thought {
            action,
            judged: Vec::new(),
            search: None,
        }
    }
}
