//! `expect` statements (SCENARIOS §6). The first word after `expect` picks a family of
//! expectations; each family's module reads its statements and checks them against a game.

pub mod fatal;
pub mod holdings;
pub mod legal;
pub mod outcome;
pub mod reject;
pub mod tile;
pub mod turn;
pub mod unit;
pub mod unit_state;
pub mod vessels;

use super::lexer::Line;
use super::setup::{LineError, Words};
use crate::engine::board::Board;
use crate::engine::error::ErrorKind;
use crate::engine::game::Game;
use fatal::FatalExpectation;
use holdings::HoldingsExpectation;
use legal::LegalExpectation;
use outcome::OutcomeExpectation;
use reject::RejectExpectation;
use tile::TileExpectation;
use turn::TurnExpectation;
use unit::UnitExpectation;
use vessels::VesselExpectation;

/// One parsed `expect` statement, by family.
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    Unit(UnitExpectation),
    Holdings(HoldingsExpectation),
    Tile(TileExpectation),
    Vessel(VesselExpectation),
    Turn(TurnExpectation),
    Legal(LegalExpectation),
    Fatal(FatalExpectation),
    Reject(RejectExpectation),
    Outcome(OutcomeExpectation),
}

/// The result of checking one expectation.
pub enum Verdict {
    Pass,
    /// Failed, with the actual value.
    Fail(String),
    /// The line itself is wrong (an action in it does not parse, S-EXP-1).
    Error(String),
}

/// Parses an `expect` statement.
pub fn parse(line: &Line, board: Board, teams: u8) -> Result<Expectation, LineError> {
    let mut w = Words::new(line);
    let keyword = w.next("what to expect")?;
    let e = match keyword {
        "unit" => Expectation::Unit(UnitExpectation::parse(&mut w, board, teams)?),
        "items" | "gold" | "score" | "side-score" | "rum" => {
            Expectation::Holdings(HoldingsExpectation::parse(keyword, &mut w, board, teams)?)
        }
        "tile" => Expectation::Tile(TileExpectation::parse(&mut w, board)?),
        "ship" | "boat" | "boats" => {
            Expectation::Vessel(VesselExpectation::parse(keyword, &mut w, board, teams)?)
        }
        "turn" | "controller" | "weed" | "pending" | "no" => {
            Expectation::Turn(TurnExpectation::parse(keyword, &mut w, teams)?)
        }
        "legal" => Expectation::Legal(LegalExpectation::parse(&mut w)?),
        "fatal" => Expectation::Fatal(FatalExpectation::parse(&mut w, true)),
        "reject" => Expectation::Reject(RejectExpectation::parse(&mut w)?),
        "over" | "eliminated" => {
            Expectation::Outcome(OutcomeExpectation::parse(keyword, &mut w, teams)?)
        }
        "not" => match w.next("over or fatal")? {
            "over" => Expectation::Outcome(OutcomeExpectation::NotOver),
            "fatal" => Expectation::Fatal(FatalExpectation::parse(&mut w, false)),
            s => return Err(w.err(format!("`{s}`: over or fatal expected"))),
        },
        s => return Err(unknown_expectation(&w, s)),
    };
    w.done()?;
    Ok(e)
}

/// Checks an expectation; never changes the game.
pub fn check(game: &Game, e: &Expectation) -> Verdict {
    match e {
        Expectation::Unit(e) => e.check(game),
        Expectation::Holdings(e) => e.check(game),
        Expectation::Tile(e) => e.check(game),
        Expectation::Vessel(e) => e.check(game),
        Expectation::Turn(e) => e.check(game),
        Expectation::Legal(e) => e.check(game),
        Expectation::Fatal(e) => e.check(game),
        Expectation::Reject(e) => e.check(game),
        Expectation::Outcome(e) => e.check(game),
    }
}

/// The error for a word after `expect` that no family reads. A family handed a keyword it
/// does not own answers with it too, so a routing slip reads as an unknown word, not a panic.
fn unknown_expectation(w: &Words, keyword: &str) -> LineError {
    w.err(format!("unknown expectation `{keyword}`"))
}

/// The rest of the line as one free text (an action), leaving nothing for `done` to refuse.
fn take_rest<'a>(w: &mut Words<'a>) -> &'a [String] {
    let rest = w.rest();
    w.pos = w.line.words.len();
    rest
}

/// Whether the notation could not read an action at all (a syntax error or an ambiguity):
/// that is the line's fault, not the game's (S-EXP-1).
fn unreadable(e: ErrorKind) -> bool {
    matches!(e, ErrorKind::Syntax | ErrorKind::Ambiguous)
}

/// Passes when `ok`; the actual state is only worked out for a failure.
fn pass_if(ok: bool, actual: impl FnOnce() -> String) -> Verdict {
    if ok {
        Verdict::Pass
    } else {
        Verdict::Fail(actual())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Cell;
    use crate::engine::item::{Item, Items};
    use legal::LegalMode;
    use tile::TileCheck;

    fn line(text: &str) -> Line {
        super::super::lexer::split("t.scn", text)
            .remove(0)
            .lines
            .remove(0)
    }

    #[test]
    fn parses_expectations() {
        let b = Board::new(13).unwrap();
        assert_eq!(
            parse(&line("expect items e5 step 3 = coin 2, bar"), b, 2).unwrap(),
            Expectation::Holdings(HoldingsExpectation::Items(
                Cell::parse("e5").unwrap(),
                Some(3),
                {
                    let mut s = Items::NONE;
                    s.add(Item::Coin, 2);
                    s.add(Item::Bar, 1);
                    s
                }
            ))
        );
        assert!(matches!(
            parse(&line("expect reject 1 e5 drop syntax"), b, 2).unwrap(),
            Expectation::Reject(RejectExpectation { action, error: Some(ErrorKind::Syntax) })
                if action == "1 e5 drop"
        ));
        assert!(parse(&line("expect unit 3.1 at e5"), b, 2).is_err());
        // No place holds more than 255 of an item: such a count used to be clipped to 255
        // and pass against 255 coins.
        assert!(parse(&line("expect items e5 = coin 256"), b, 2).is_err());
        assert!(parse(&line("expect items e5 = coin 200, coin 56"), b, 2).is_err());
        assert!(parse(&line("expect items e5 = coin 200, coin 55"), b, 2).is_ok());
        assert!(matches!(
            parse(&line("expect legal exactly d5; d5 drop; f5"), b, 2).unwrap(),
            Expectation::Legal(LegalExpectation::List { mode: LegalMode::Exactly, actions, .. })
                if actions.len() == 3
        ));
        assert!(matches!(
            parse(&line("expect tile g2 open"), b, 2).unwrap(),
            Expectation::Tile(TileExpectation {
                check: TileCheck::Open,
                ..
            })
        ));
        assert!(matches!(
            parse(&line("expect tile k9 open cave"), b, 2).unwrap(),
            Expectation::Tile(TileExpectation {
                check: TileCheck::Kind { open: true, .. },
                ..
            })
        ));
    }

    #[test]
    fn negated_expectations_reach_their_families() {
        let b = Board::new(13).unwrap();
        assert_eq!(
            parse(&line("expect not over"), b, 2).unwrap(),
            Expectation::Outcome(OutcomeExpectation::NotOver)
        );
        assert_eq!(
            parse(&line("expect not fatal 1 e6"), b, 2).unwrap(),
            Expectation::Fatal(FatalExpectation {
                fatal: false,
                action: "1 e6".into()
            })
        );
        let unknown = parse(&line("expect frobnicate"), b, 2).unwrap_err();
        assert_eq!(unknown.message, "unknown expectation `frobnicate`");
    }
}
