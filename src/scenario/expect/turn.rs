//! `expect turn`, `controller`, `weed`, `pending` and `no pending`: whose turn it is, who
//! commands it, and which choice the game waits for.

use super::{Verdict, pass_if, unknown_expectation};
use crate::engine::action::ChoiceKind;
use crate::engine::game::Game;
use crate::engine::unit::Team;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub enum TurnExpectation {
    Turn(Team),
    Controller(Team),
    Weed(u32),
    Pending(ChoiceKind),
    NoPending,
}

impl TurnExpectation {
    /// Reads the statement after `keyword`: `TEAM` for `turn` and `controller`, `K` for
    /// `weed`, `KIND` for `pending`, `pending` after `no`.
    pub fn parse(keyword: &str, w: &mut Words, teams: u8) -> Result<Self, LineError> {
        Ok(match keyword {
            "turn" => Self::Turn(w.team(teams)?),
            "controller" => Self::Controller(w.team(teams)?),
            "weed" => Self::Weed(w.count()?),
            "pending" => {
                let k = w.next("a choice kind")?;
                Self::Pending(
                    ChoiceKind::parse(k)
                        .ok_or_else(|| w.err(format!("`{k}` is not a choice kind")))?,
                )
            }
            "no" => {
                w.expect("pending")?;
                Self::NoPending
            }
            s => return Err(unknown_expectation(w, s)),
        })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        match *self {
            Self::Turn(t) => pass_if(!game.is_over() && game.turn() == t, || {
                if game.is_over() {
                    "the game is over".into()
                } else {
                    format!("turn {}", game.turn())
                }
            }),
            Self::Controller(t) => pass_if(game.controller() == t, || {
                format!("controller {}", game.controller())
            }),
            Self::Weed(k) => pass_if(game.weed() == k, || format!("weed {}", game.weed())),
            Self::Pending(k) => pass_if(game.pending_kind() == Some(k), || pending_text(game)),
            Self::NoPending => pass_if(game.pending_kind().is_none(), || pending_text(game)),
        }
    }
}

fn pending_text(game: &Game) -> String {
    match game.pending_kind() {
        Some(k) => format!("pending {}", k.name()),
        None => "no pending".into(),
    }
}
