//! How a game ended: one typed value, stored as JSON in `games.result`.
//!
//! A game ends in the engine (an [`Outcome`]: someone won, or a draw), or outside it: a duel
//! lost by resignation, a cancellation, a game whose Discord thread was deleted. Readers match
//! on [`GameEnd`]; nothing probes JSON shapes.

use serde::{Deserialize, Serialize};

use crate::engine::{EndReason, Outcome, Team};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum GameEnd {
    /// The rules ended the game (R-END).
    Played(Outcome),
    /// A player of a duel resigned, or let their time run out under the `resign` policy
    /// (`timed_out`); the other side won.
    Resigned {
        team: Team,
        winners: Vec<Team>,
        /// Stored only when true, so endings written before it read as they were.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        timed_out: bool,
    },
    /// The owner or a server admin cancelled the game.
    Cancelled,
    /// The game's Discord thread was deleted: the game was archived where it stood.
    ThreadDeleted,
}

/// A team as a JSON number, 1–4.
fn team_number(value: &serde_json::Value) -> Option<Team> {
    Team::new(u8::try_from(value.as_u64()?).ok()?)
}

impl GameEnd {
    /// The JSON stored in `games.result`.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).expect("plain data")
    }

    /// Reads `games.result`, in today's form or in any form stored before it was typed
    /// (migration 6 and old exports): an engine outcome as it was, `{"cancelled": true}`,
    /// `{"resigned": T, "winners": [W]}`. `None` when it is none of these (an import of an
    /// old export wrote `{}` for "unknown").
    pub fn from_stored(text: &str) -> Option<GameEnd> {
        if let Ok(end) = serde_json::from_str::<GameEnd>(text) {
            return Some(end);
        }
        if let Ok(outcome) = serde_json::from_str::<Outcome>(text) {
            return Some(GameEnd::Played(outcome));
        }
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        if value.get("cancelled").is_some() {
            return Some(GameEnd::Cancelled);
        }
        let team = team_number(value.get("resigned")?)?;
        let winners = value
            .get("winners")?
            .as_array()?
            .iter()
            .map(team_number)
            .collect::<Option<Vec<Team>>>()?;
        Some(GameEnd::Resigned {
            team,
            winners,
            timed_out: false,
        })
    }

    /// The winning teams (empty for a cancellation or a draw).
    pub fn winners(&self) -> &[Team] {
        match self {
            GameEnd::Played(o) if !o.draw => &o.winners,
            GameEnd::Resigned { winners, .. } => winners,
            _ => &[],
        }
    }

    /// Did the game end in play (not cancelled or archived)?
    pub fn is_result(&self) -> bool {
        matches!(self, GameEnd::Played(_) | GameEnd::Resigned { .. })
    }

    /// The engine's reason, for an ending in play.
    pub fn reason(&self) -> Option<EndReason> {
        match self {
            GameEnd::Played(o) => Some(o.reason),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome() -> Outcome {
        Outcome {
            winners: vec![Team::of(2)],
            draw: false,
            reason: EndReason::Uncatchable,
        }
    }

    #[test]
    fn every_end_round_trips() {
        for end in [
            GameEnd::Played(outcome()),
            GameEnd::Resigned {
                team: Team::of(1),
                winners: vec![Team::of(2)],
                timed_out: false,
            },
            GameEnd::Resigned {
                team: Team::of(2),
                winners: vec![Team::of(1)],
                timed_out: true,
            },
            GameEnd::Cancelled,
            GameEnd::ThreadDeleted,
        ] {
            assert_eq!(GameEnd::from_stored(&end.to_stored()), Some(end));
        }
    }

    /// The three shapes written before the result was typed still read.
    #[test]
    fn old_shapes_read() {
        let old_outcome = serde_json::to_string(&outcome()).unwrap();
        assert_eq!(
            GameEnd::from_stored(&old_outcome),
            Some(GameEnd::Played(outcome()))
        );
        assert_eq!(
            GameEnd::from_stored("{\"cancelled\":true}"),
            Some(GameEnd::Cancelled)
        );
        assert_eq!(
            GameEnd::from_stored("{\"resigned\":3,\"winners\":[1]}"),
            Some(GameEnd::Resigned {
                team: Team::of(3),
                winners: vec![Team::of(1)],
                timed_out: false,
            })
        );
        // A resignation stored before `timed_out` existed was one by hand.
        assert_eq!(
            GameEnd::from_stored("{\"end\":\"resigned\",\"team\":1,\"winners\":[2]}"),
            Some(GameEnd::Resigned {
                team: Team::of(1),
                winners: vec![Team::of(2)],
                timed_out: false,
            })
        );
        assert_eq!(GameEnd::from_stored("{}"), None);
        assert_eq!(GameEnd::from_stored("nonsense"), None);
        assert_eq!(
            GameEnd::from_stored("{\"resigned\":300,\"winners\":[1]}"),
            None
        );
    }

    #[test]
    fn winners() {
        assert_eq!(GameEnd::Played(outcome()).winners(), &[Team::of(2)]);
        assert!(GameEnd::Cancelled.winners().is_empty());
        assert!(!GameEnd::ThreadDeleted.is_result());
    }
}
