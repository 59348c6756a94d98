//! `expect reject A [ERROR]`: the engine refuses A, with that error kind if one is named.

use super::{Verdict, take_rest};
use crate::engine::error::ErrorKind;
use crate::engine::game::Game;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub struct RejectExpectation {
    pub action: String,
    pub error: Option<ErrorKind>,
}

impl RejectExpectation {
    /// Reads the action, and an error kind when the line's last word is one.
    pub fn parse(w: &mut Words) -> Result<Self, LineError> {
        let mut rest: Vec<String> = take_rest(w).to_vec();
        let error = match rest.last().and_then(|l| ErrorKind::parse(l)) {
            Some(e) => {
                rest.pop();
                Some(e)
            }
            None => None,
        };
        if rest.is_empty() {
            // SCENARIOS §6: a rejection needs the action it rejects (an empty text is not
            // a rejection of nothing).
            return Err(w.err("`expect reject` needs an action"));
        }
        Ok(RejectExpectation {
            action: rest.join(" "),
            error,
        })
    }

    /// Checks the action without applying it; an unreadable text is a rejection too.
    pub fn check(&self, game: &Game) -> Verdict {
        let result = game
            .parse_action(&self.action)
            .and_then(|a| game.check(&a).map_err(|e| e.kind));
        match (result, self.error) {
            (Ok(()), _) => Verdict::Fail("accepted".into()),
            (Err(got), Some(want)) if got != want => Verdict::Fail(format!("rejected: {got}")),
            _ => Verdict::Pass,
        }
    }
}
