//! `expect fatal A` and `expect not fatal A`: A is legal and is, or is not, flagged fatal.

use super::{Verdict, pass_if, take_rest, unreadable};
use crate::engine::game::Game;
use crate::scenario::setup::Words;

#[derive(Clone, Debug, PartialEq)]
pub struct FatalExpectation {
    /// `false` for `expect not fatal`.
    pub fatal: bool,
    pub action: String,
}

impl FatalExpectation {
    /// Takes the rest of the line as the action; `fatal` says which of the two forms it is.
    pub fn parse(w: &mut Words, fatal: bool) -> Self {
        FatalExpectation {
            fatal,
            action: take_rest(w).join(" "),
        }
    }

    pub fn check(&self, game: &Game) -> Verdict {
        let text = &self.action;
        let action = match game.parse_action(text) {
            Ok(a) => a,
            Err(e) if unreadable(e) => return Verdict::Error(format!("`{text}`: {e}")),
            Err(e) => return Verdict::Fail(format!("not legal: {e}")),
        };
        match game
            .legal_actions()
            .into_iter()
            .find(|l| l.action == action)
        {
            None => Verdict::Fail(format!(
                "not legal: {}",
                game.check(&action)
                    .err()
                    .map_or("not listed".into(), |e| e.kind.to_string())
            )),
            Some(l) => pass_if(l.fatal == self.fatal, || {
                if l.fatal {
                    "fatal".into()
                } else {
                    "not fatal".into()
                }
            }),
        }
    }
}
