//! `expect over winner|draw …`, `expect not over` and `expect eliminated TEAM`: how the game
//! ended, if it did.

use super::{Verdict, pass_if, unknown_expectation};
use crate::engine::event::EndReason;
use crate::engine::game::Game;
use crate::engine::unit::Team;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub enum OutcomeExpectation {
    Winner(Team, Option<EndReason>),
    Draw(Vec<Team>, Option<EndReason>),
    NotOver,
    Eliminated(Team),
}

impl OutcomeExpectation {
    /// Reads the statement after `over` or `eliminated`; `not over` needs no reading.
    pub fn parse(keyword: &str, w: &mut Words, teams: u8) -> Result<Self, LineError> {
        Ok(match keyword {
            "over" => match w.next("winner or draw")? {
                "winner" => {
                    let team = w.team(teams)?;
                    Self::Winner(team, end_reason(w)?)
                }
                "draw" => {
                    let mut list = Vec::new();
                    while let Some(t) = w.peek() {
                        if t.bytes().all(|b| b.is_ascii_digit()) {
                            list.push(w.team(teams)?);
                        } else {
                            break;
                        }
                    }
                    Self::Draw(list, end_reason(w)?)
                }
                s => return Err(w.err(format!("`{s}`: winner or draw expected"))),
            },
            "eliminated" => Self::Eliminated(w.team(teams)?),
            s => return Err(unknown_expectation(w, s)),
        })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        match self {
            Self::Winner(t, r) => match game.outcome() {
                Some(o) if !o.draw && o.winners.contains(t) && r.is_none_or(|r| r == o.reason) => {
                    Verdict::Pass
                }
                _ => Verdict::Fail(outcome_text(game)),
            },
            Self::Draw(teams, r) => match game.outcome() {
                Some(o)
                    if o.draw
                        && r.is_none_or(|r| r == o.reason)
                        && (teams.is_empty() || same_sides(game, teams, &o.winners)) =>
                {
                    Verdict::Pass
                }
                _ => Verdict::Fail(outcome_text(game)),
            },
            Self::NotOver => pass_if(!game.is_over(), || outcome_text(game)),
            Self::Eliminated(t) => pass_if(game.is_eliminated(*t), || format!("team {t} in play")),
        }
    }
}

/// The optional `REASON` that ends an `over` statement (S-EXP-3).
fn end_reason(w: &mut Words) -> Result<Option<EndReason>, LineError> {
    match w.peek() {
        None => Ok(None),
        Some(r) => {
            let reason =
                EndReason::parse(r).ok_or_else(|| w.err(format!("`{r}` is not an end reason")))?;
            w.pos += 1;
            Ok(Some(reason))
        }
    }
}

/// Whether the sides of the listed teams are exactly the drawing teams.
fn same_sides(game: &Game, listed: &[Team], winners: &[Team]) -> bool {
    let mut a: Vec<Team> = listed.iter().flat_map(|t| game.side_of(*t)).collect();
    let mut b = winners.to_vec();
    a.sort();
    a.dedup();
    b.sort();
    a == b
}

fn outcome_text(game: &Game) -> String {
    match game.outcome() {
        None => "not over".into(),
        Some(o) => {
            let teams: Vec<String> = o.winners.iter().map(|t| t.to_string()).collect();
            format!(
                "over {} {} {}",
                if o.draw { "draw" } else { "winner" },
                teams.join(" "),
                o.reason.id()
            )
        }
    }
}
