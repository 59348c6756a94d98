//! What exactly stands in the way of a refused action ([`Detail`]): found once the error kind
//! is known, so that move generation, which asks the same questions thousands of times a
//! second, only ever computes the kind.

use super::action::Action;
use super::board::{Board, Cell};
use super::error::{Detail, ErrorKind};
use super::game::Game;
use super::item::Item;
use super::tile::TileKind;
use super::unit::{Place, UnitKind, UnitRef};

/// Which word of a text the notation cannot read (S-NOT-3 `syntax`), by the forms of
/// SCENARIOS §4; `None` when no single word is to blame.
pub fn syntax_detail(text: &str, board: Board) -> Option<Detail> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return Some(Detail::NoText);
    };
    let cell = |w: &str| match board.parse_cell(w) {
        Some(_) => None,
        None => Some(Detail::NotACell(w.to_string())),
    };
    let items = |ws: &[&str]| {
        ws.iter()
            .find(|w| Item::parse(w).is_none())
            .map(|w| Detail::NotAnItem(w.to_string()))
    };
    let too_many =
        |ws: &[&str], most: usize| ws.get(most).map(|w| Detail::TooManyWords(w.to_string()));
    match *first {
        "ship" | "rum" | "boat" | "res" => {
            let most = if *first == "boat" { 2 } else { 1 };
            if rest.is_empty() && *first != "res" {
                return Some(Detail::CellMissing);
            }
            too_many(rest, most).or_else(|| rest.iter().find_map(|w| cell(w)))
        }
        id if UnitKind::parse(id).is_some() => match rest.split_first() {
            None => Some(Detail::CellMissing),
            Some((to, cargo)) => cell(to).or_else(|| items(cargo)),
        },
        at if Cell::parse(at).is_some() => cell(at).or_else(|| match rest {
            ["drop", more @ ..] => too_many(more, 0),
            words => items(words),
        }),
        other => Some(Detail::UnknownStart(other.to_string())),
    }
}

impl Game {
    /// What stands in the way of `action`, refused with `kind` (see [`Game::check`]).
    pub(crate) fn detail_of(&self, action: &Action, kind: ErrorKind) -> Option<Detail> {
        let team = self.turn;
        match (*action, kind) {
            (Action::Move { unit, .. }, ErrorKind::UnitDisabled) => {
                let u = self.unit(UnitRef { team, kind: unit })?;
                Some(if u.stuck() {
                    Detail::Stuck
                } else if u.trapped {
                    Detail::Trapped
                } else {
                    Detail::Drunk
                })
            }
            (Action::Move { unit, to, cargo }, ErrorKind::Unreachable) => {
                let u = self.unit(UnitRef { team, kind: unit })?;
                let to_plain_sea = self.board.is_sea(to) && self.vessel_at(to).is_none();
                let from = self.place_cell(u.place)?;
                (matches!(u.place, Place::Land { .. })
                    && u.seat.is_none()
                    && to_plain_sea
                    && self.board.adjacent(from, to)
                    && cargo.count(Item::Boat) == 0)
                    .then_some(Detail::NoBoatToLaunch)
            }
            (Action::Move { unit, cargo, .. }, ErrorKind::BadCargo) => {
                let u = self.unit(UnitRef { team, kind: unit })?;
                Some(if !u.carries() || matches!(u.place, Place::Swim(_)) {
                    Detail::CarriesNothing
                } else if !cargo.within_capacity() {
                    Detail::CargoTooMuch
                } else {
                    Detail::CargoNotThere
                })
            }
            (Action::Move { to, .. }, ErrorKind::CargoForbidden) => Some(if self.is_fog(to) {
                Detail::CargoIntoFog
            } else {
                match self.open_kind(to) {
                    Some(k) if k.is_fortress() => Detail::CargoIntoFortress,
                    Some(TileKind::Jungle) => Detail::CargoIntoJungle,
                    _ => Detail::CargoOntoEnemies,
                }
            }),
            (Action::Ship { .. }, ErrorKind::VesselCannotMove) => {
                let v = self.main_ship(team)?;
                (!self.crewed(team, v)).then_some(Detail::NoCrew)
            }
            (Action::Boat { from, .. }, ErrorKind::VesselCannotMove) => {
                let v = self.vessel_at(from)?;
                (self.vessels[v].owner == team && !self.crewed(team, v)).then_some(Detail::NoCrew)
            }
            (Action::Rum { at }, ErrorKind::RumForbidden) => self.rum_refusal(team, at),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::IllegalAction;

    fn game(text: &str) -> Game {
        let (game, _) = crate::scenario::position_after_plays(text).unwrap();
        game
    }

    fn refusal(game: &Game, text: &str) -> IllegalAction {
        let before = game.clone();
        let mut copy = game.clone();
        let refused = copy
            .read_action(text)
            .and_then(|a| copy.play(&a).map(|_| a))
            .unwrap_err();
        assert_eq!(copy, before, "a refusal changes nothing: {text}");
        refused
    }

    /// The notation names the word it cannot read (S-NOT-3 `syntax`).
    #[test]
    fn syntax_names_the_word_to_blame() {
        let g = game("board 9\ntile c8 fog chest1\n");
        let syntax = |text: &str, detail: Option<Detail>| {
            assert_eq!(
                refusal(&g, text),
                IllegalAction::with(ErrorKind::Syntax, detail),
                "{text}"
            )
        };
        syntax("", Some(Detail::NoText));
        syntax("hello", Some(Detail::UnknownStart("hello".into())));
        syntax("1 m13", Some(Detail::NotACell("m13".into())));
        syntax("1 e2 gold", Some(Detail::NotAnItem("gold".into())));
        syntax("ship", Some(Detail::CellMissing));
        syntax("ship d1 e1", Some(Detail::TooManyWords("e1".into())));
        syntax("e5 drop coin", Some(Detail::TooManyWords("coin".into())));
        syntax("boat z1", Some(Detail::NotACell("z1".into())));
    }

    /// Which cargo rule, which rum rule, which state stops a unit.
    #[test]
    fn rule_refusals_say_which_rule() {
        let g = game(
            "tile e5 jungle\ntile e6 fog empty\ntile d4 fortress\ntile h5 trap\ntile c3 cave\n\
             tile d10 fog chest1\nunit 1.1 e4\nunit 1.2 h5 trapped\nunit 1.3 c3 stuck\n\
             unit 1.m d5\nunit 2.1 f4\nitem e4 coin\nitem d5 coin\nrum 2 = 1\n",
        );
        let says = |text: &str, kind: ErrorKind, detail: Detail| {
            assert_eq!(
                refusal(&g, text),
                IllegalAction::with(kind, Some(detail)),
                "{text}"
            )
        };
        says(
            "1 e5 coin",
            ErrorKind::CargoForbidden,
            Detail::CargoIntoJungle,
        );
        says(
            "1 d4 coin",
            ErrorKind::CargoForbidden,
            Detail::CargoIntoFortress,
        );
        says(
            "1 f4 coin",
            ErrorKind::CargoForbidden,
            Detail::CargoOntoEnemies,
        );
        says("1 e3 coin coin", ErrorKind::BadCargo, Detail::CargoTooMuch);
        says("m d4 coin", ErrorKind::BadCargo, Detail::CarriesNothing);
        says("2 h6", ErrorKind::UnitDisabled, Detail::Trapped);
        says("3 c4", ErrorKind::UnitDisabled, Detail::Stuck);
        says("rum h5", ErrorKind::RumForbidden, Detail::NoRumInStock);
        says("ship f1", ErrorKind::VesselCannotMove, Detail::NoCrew);
        let fog = game("tile e5 fog empty\ntile d10 fog chest1\nunit 1.1 e4\nitem e4 coin\n");
        assert_eq!(
            refusal(&fog, "1 e5 coin"),
            IllegalAction::with(ErrorKind::CargoForbidden, Some(Detail::CargoIntoFog))
        );
        let shore = game("tile d10 fog chest1\nunit 1.1 b5\n");
        assert_eq!(
            refusal(&shore, "1 a5"),
            IllegalAction::with(ErrorKind::Unreachable, Some(Detail::NoBoatToLaunch))
        );
        let rum =
            game("tile e5 jungle\ntile d10 fog chest1\nunit 1.1 e4\nunit 1.m e5\nrum 1 = 2\n");
        assert_eq!(
            refusal(&rum, "rum e5"),
            IllegalAction::with(ErrorKind::RumForbidden, Some(Detail::RumOnJungle))
        );
        assert_eq!(
            refusal(&rum, "rum h9"),
            IllegalAction::with(ErrorKind::RumForbidden, Some(Detail::NoServer))
        );
        assert_eq!(
            refusal(&rum, "rum f4"),
            IllegalAction::with(ErrorKind::RumForbidden, Some(Detail::RumWasted))
        );
        assert!(
            refusal(&rum, "rum f4")
                .to_string()
                .contains("change nothing")
        );
    }
}
