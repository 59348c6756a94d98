//! Engine values in words: events of a move ("Pirate 2 (🟠 alice) jumped to e7"), units,
//! items, tiles, outcomes and actions, in either language (a game's endings and notices are
//! told by `game::narrate`, beside their types).
//!
//! Teams are named by the caller ([`Teams`]): the terminal game says "team 2", the bot names
//! the player and the team's colour.

use super::Lang;
use crate::engine::{
    Action, ChoiceKind, DeathCause, EndReason, Event, Item, Items, Motion, OpenedBy, Outcome, Team,
    TileKind, UnitKind, UnitRef,
};
use crate::tr;

/// How a team is named in a sentence.
pub trait Teams {
    fn name(&self, team: Team) -> String;

    /// The person a team's seat is for, even while a bot plays it for them (who missed the
    /// deadlines, who may take the seat back); the team's name where there is none.
    fn person(&self, team: Team) -> String {
        self.name(team)
    }
}

/// "team 2" ("команда 2"): for places with no players' names.
pub struct Numbered(pub Lang);

impl Teams for Numbered {
    fn name(&self, team: Team) -> String {
        tr!(self.0, "team-numbered", team = team.number())
    }
}

impl<F: Fn(Team) -> String> Teams for F {
    fn name(&self, team: Team) -> String {
        self(team)
    }
}

/// A unit kind alone: "Pirate 2", "Ben Gunn".
pub fn unit_kind(lang: Lang, kind: UnitKind) -> String {
    match kind {
        UnitKind::Pirate(n) => tr!(lang, "unit-pirate", n = n),
        UnitKind::Ben => tr!(lang, "unit-ben"),
        UnitKind::Friday => tr!(lang, "unit-friday"),
        UnitKind::Missionary => tr!(lang, "unit-missionary"),
    }
}

/// A unit with its team: "Pirate 2 (team 1)".
pub fn unit(lang: Lang, teams: &dyn Teams, u: &UnitRef) -> String {
    tr!(
        lang,
        "unit-of-team",
        unit = unit_kind(lang, u.kind),
        team = teams.name(u.team)
    )
}

fn item_id(item: Item) -> &'static str {
    match item {
        Item::Cart => "item-cart",
        Item::Coin => "item-coin",
        Item::Bar => "item-bar",
        Item::Ball => "item-ball",
        Item::Boat => "item-boat",
    }
}

/// "2 coins, 1 gold bar"; "nothing" for none.
pub fn items(lang: Lang, items: &Items) -> String {
    let parts: Vec<String> = Item::ALL
        .into_iter()
        .filter(|i| items.count(*i) > 0)
        .map(|i| tr!(lang, item_id(i), count = items.count(i)))
        .collect();
    if parts.is_empty() {
        tr!(lang, "items-none")
    } else {
        parts.join(", ")
    }
}

/// The name of a tile kind: "arrow", "maze of 3 steps", "chest of 2 coins".
pub fn tile(lang: Lang, kind: TileKind) -> String {
    let id = match kind {
        TileKind::Empty => "tile-empty",
        TileKind::Arrow(_) => "tile-arrow",
        TileKind::Horse => "tile-horse",
        TileKind::Ice => "tile-ice",
        TileKind::Maze(steps) => return tr!(lang, "tile-maze", steps = steps),
        TileKind::Trap => "tile-trap",
        TileKind::Crocodile => "tile-crocodile",
        TileKind::Cannibal => "tile-cannibal",
        TileKind::Fortress => "tile-fortress",
        TileKind::ResFort => "tile-resfort",
        TileKind::Chest(coins) => return tr!(lang, "tile-chest", coins = coins),
        TileKind::Bullion => "tile-bullion",
        TileKind::Barrel => "tile-barrel",
        TileKind::Cannon(_) => "tile-cannon",
        TileKind::Balloon => "tile-balloon",
        TileKind::Plane => "tile-plane",
        TileKind::Lighthouse => "tile-lighthouse",
        TileKind::BenGunn => "tile-bengunn",
        TileKind::Friday => "tile-friday",
        TileKind::Missionary => "tile-missionary",
        TileKind::Bottles(n) => return tr!(lang, "tile-bottles", count = n),
        TileKind::Cave => "tile-cave",
        TileKind::Earthquake => "tile-earthquake",
        TileKind::Jungle => "tile-jungle",
        TileKind::Weed => "tile-weed",
        TileKind::Caramba => "tile-caramba",
        TileKind::BoatTile => "tile-boat",
        TileKind::CartTile => "tile-cart",
        TileKind::BallTile => "tile-ball",
    };
    tr!(lang, id)
}

fn cause_id(cause: DeathCause) -> &'static str {
    match cause {
        DeathCause::Drowned => "death-drowned",
        DeathCause::EnemyVessel => "death-enemy-vessel",
        DeathCause::Forbidden => "death-forbidden",
        DeathCause::Restriction => "death-restriction",
        DeathCause::Cannibal => "death-cannibal",
        DeathCause::Loop => "death-loop",
        DeathCause::NowhereToGo => "death-nowhere",
        DeathCause::NoVessel => "death-no-vessel",
        DeathCause::Cannonball => "death-cannonball",
        DeathCause::Rum => "death-rum",
        DeathCause::FridayMissionary => "death-friday-missionary",
        DeathCause::Eliminated => "death-eliminated",
        DeathCause::Sunk => "death-sunk",
    }
}

fn motion_id(motion: Motion) -> &'static str {
    match motion {
        Motion::Step(_) => "ev-moved-step",
        Motion::Jump(..) => "ev-moved-jump",
        Motion::Flight => "ev-moved-flight",
        Motion::Shot => "ev-moved-shot",
        Motion::Balloon => "ev-moved-balloon",
        Motion::Tunnel => "ev-moved-tunnel",
        Motion::Advance => "ev-moved-advance",
    }
}

/// One line per notable event of a move, in order.
pub fn events(lang: Lang, teams: &dyn Teams, events: &[Event]) -> Vec<String> {
    let who = |u: &UnitRef| unit(lang, teams, u);
    let mut out = Vec::new();
    for e in events {
        let line = match e {
            Event::Moved {
                unit, to, motion, ..
            } => tr!(
                lang,
                motion_id(*motion),
                unit = who(unit),
                cell = to.to_string()
            ),
            Event::Opened { cell, kind, by } => tr!(
                lang,
                match by {
                    OpenedBy::Unit => "ev-opened",
                    OpenedBy::Lighthouse => "ev-revealed",
                    OpenedBy::Cannonball => "ev-shelled",
                },
                cell = cell.to_string(),
                tile = tile(lang, *kind)
            ),
            Event::Recruited { unit, at } => tr!(
                lang,
                "ev-recruited",
                unit = who(unit),
                cell = at.to_string()
            ),
            Event::Converted { unit } => tr!(lang, "ev-converted", unit = who(unit)),
            Event::BottlesFound { team, bottles, .. } => tr!(
                lang,
                "ev-bottles",
                team = teams.name(*team),
                bottles = *bottles
            ),
            Event::WeedFound { team, cell, turns } => tr!(
                lang,
                "ev-weed",
                team = teams.name(*team),
                cell = cell.to_string(),
                turns = *turns
            ),
            Event::Retreated { unit, to, .. } => tr!(
                lang,
                "ev-retreated",
                unit = who(unit),
                cell = to.to_string()
            ),
            Event::Caramba { .. } => tr!(lang, "ev-caramba"),
            Event::Stuck { unit, cave } => {
                tr!(lang, "ev-stuck", unit = who(unit), cell = cave.to_string())
            }
            Event::Released { unit, at } => {
                tr!(lang, "ev-released", unit = who(unit), cell = at.to_string())
            }
            Event::Quaked { a, b } => tr!(lang, "ev-quaked", a = a.to_string(), b = b.to_string()),
            Event::Launched { team, cell } => tr!(
                lang,
                "ev-launched",
                team = teams.name(*team),
                cell = cell.to_string()
            ),
            Event::CannonFired { team, cell, .. } => tr!(
                lang,
                "ev-fired",
                team = teams.name(*team),
                cell = cell.to_string()
            ),
            Event::VesselHit { team, cell, hits } => tr!(
                lang,
                "ev-vessel-hit",
                team = teams.name(*team),
                cell = cell.to_string(),
                hits = *hits
            ),
            Event::VesselSunk { team, cell, boat } => tr!(
                lang,
                "ev-vessel-sunk",
                team = teams.name(*team),
                cell = cell.to_string(),
                boat = if *boat { "yes" } else { "no" }
            ),
            Event::Eliminated { team } => {
                tr!(lang, "ev-eliminated", team = teams.name(*team))
            }
            Event::RumServed { team, cell } => tr!(
                lang,
                "ev-rum-served",
                team = teams.name(*team),
                cell = cell.to_string()
            ),
            Event::Appeared { cell, items: i } => tr!(
                lang,
                "ev-appeared",
                cell = cell.to_string(),
                items = items(lang, i)
            ),
            Event::CargoReturned { cell, items: i } => tr!(
                lang,
                "ev-cargo-returned",
                cell = cell.to_string(),
                items = items(lang, i)
            ),
            Event::Lost { cell, items: i } => tr!(
                lang,
                "ev-lost",
                cell = cell.to_string(),
                items = items(lang, i)
            ),
            Event::Delivered { team, points, .. } => tr!(
                lang,
                "ev-delivered",
                team = teams.name(*team),
                points = *points
            ),
            Event::KnockedOut { unit, to, .. } => {
                tr!(
                    lang,
                    "ev-knocked-out",
                    unit = who(unit),
                    cell = to.to_string()
                )
            }
            Event::Died { unit, at, cause } => tr!(
                lang,
                cause_id(*cause),
                unit = who(unit),
                cell = at.to_string()
            ),
            Event::Joined { unit, team } => tr!(
                lang,
                "ev-joined",
                unit = unit_kind(lang, unit.kind),
                team = teams.name(*team)
            ),
            Event::Drunk { unit } => tr!(lang, "ev-drunk", unit = who(unit)),
            Event::Trapped { unit } => tr!(lang, "ev-trapped", unit = who(unit)),
            Event::Freed { unit } => tr!(lang, "ev-freed", unit = who(unit)),
            Event::Seated { unit, .. } => tr!(lang, "ev-seated", unit = who(unit)),
            Event::VesselMoved { team, to, .. } => tr!(
                lang,
                "ev-vessel-moved",
                team = teams.name(*team),
                cell = to.to_string()
            ),
            Event::Resurrected { unit, at } => {
                tr!(
                    lang,
                    "ev-resurrected",
                    unit = who(unit),
                    cell = at.to_string()
                )
            }
            Event::TurnSkipped { team } => tr!(lang, "ev-skipped", team = teams.name(*team)),
            Event::TurnPassed { team } => tr!(lang, "ev-passed", team = teams.name(*team)),
            // The end and a pending choice are told where they matter (the result post, the
            // picker), not among what happened.
            Event::GameOver(_)
            | Event::ChoiceRequired { .. }
            | Event::PutDown { .. }
            | Event::Stowed { .. }
            | Event::Sobered { .. }
            | Event::PlaneSpent { .. }
            | Event::TurnStarted { .. } => continue,
        };
        out.push(line);
    }
    out
}

/// What a pending choice asks, as a sentence ("Choose where to go on from the fork").
pub fn choice_id(kind: ChoiceKind) -> &'static str {
    match kind {
        ChoiceKind::Exit => "choice-exit",
        ChoiceKind::Jump => "choice-jump",
        ChoiceKind::Flight => "choice-flight",
        ChoiceKind::Cave => "choice-cave",
        ChoiceKind::Reveal => "choice-reveal",
        ChoiceKind::Quake => "choice-quake",
    }
}

fn reason_id(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Uncatchable => "end-reason-uncatchable",
        EndReason::NoMoves => "end-reason-no-moves",
        EndReason::Sunk => "end-reason-sunk",
        EndReason::Disabled => "end-reason-disabled",
        EndReason::Stall => "end-reason-stall",
    }
}

/// "team 1 and team 3" / "команда 1 и команда 3".
pub fn team_list(lang: Lang, teams: &dyn Teams, list: &[Team]) -> String {
    let names: Vec<String> = list.iter().map(|t| teams.name(*t)).collect();
    joined(lang, "list-and", &names)
}

/// `items` as a list whose last two are joined by the word of `message` (`list-and`,
/// `list-or`).
fn joined(lang: Lang, message: &str, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => tr!(lang, message, init = init.join(", "), last = last.clone()),
    }
}

/// "a, b or c" / "a, b или c": one of several choices.
pub fn one_of(lang: Lang, choices: &[String]) -> String {
    joined(lang, "list-or", choices)
}

/// The result of a game ended by the rules.
pub fn outcome(lang: Lang, teams: &dyn Teams, o: &Outcome) -> String {
    let reason = tr!(lang, reason_id(o.reason));
    let names = team_list(lang, teams, &o.winners);
    if o.draw {
        tr!(lang, "end-draw", teams = names, reason = reason)
    } else {
        tr!(
            lang,
            "end-won",
            teams = names,
            count = o.winners.len(),
            reason = reason
        )
    }
}

/// A length in days and hours, rounded to the nearest hour: "2 days 6 hours" (an allowance
/// a few seconds short of 14 days is 14 days, not "13 days 23 hours").
pub fn days_and_hours(lang: Lang, ms: i64) -> String {
    let hours = ((ms.max(0) + 1_800_000) / 3_600_000) as u32;
    match (hours / 24, hours % 24) {
        (0, h) => tr!(lang, "duration-hours", count = h),
        (d, 0) => tr!(lang, "duration-days", count = d),
        (d, h) => format!(
            "{} {}",
            tr!(lang, "duration-days", count = d),
            tr!(lang, "duration-hours", count = h)
        ),
    }
}

/// A moment in a notice, as Discord shows it to each reader in their own time zone (notices
/// are posted in Discord only).
pub fn moment(ms: i64) -> String {
    format!("<t:{}:f>", ms.div_euclid(1000))
}

/// A step of the log in words: a take-back (`take_back_to`: the ply it returned to), an
/// action, or (a row whose action cannot be read) its notation as recorded.
pub fn step(
    lang: Lang,
    take_back_to: Option<u32>,
    played: Option<&Action>,
    notation: &str,
) -> String {
    match (take_back_to, played) {
        (Some(to), _) => tr!(lang, "history-take-back", ply = to),
        (None, Some(a)) => action(lang, a),
        (None, None) => notation.to_string(),
    }
}

/// An action in words, for lists of legal moves: "Pirate 2 → f7 with 1 coin", "Ship → f1".
pub fn action(lang: Lang, a: &Action) -> String {
    let with = |cargo: &Items| {
        if cargo.is_empty() {
            String::new()
        } else {
            tr!(lang, "action-with", items = items(lang, cargo))
        }
    };
    match a {
        Action::Move { unit, to, cargo } => tr!(
            lang,
            "action-move",
            unit = unit_kind(lang, *unit),
            cell = to.to_string(),
            cargo = with(cargo)
        ),
        Action::Ship { to } => tr!(lang, "action-ship", cell = to.to_string()),
        Action::Boat { from, to } => tr!(
            lang,
            "action-boat",
            from = from.to_string(),
            cell = to.to_string()
        ),
        Action::Resurrect { at } => tr!(lang, "action-resurrect", cell = at.to_string()),
        Action::Rum { at } => tr!(lang, "action-rum", cell = at.to_string()),
        Action::Pass => tr!(lang, "action-pass"),
        Action::Choose { cell, cargo } => tr!(
            lang,
            "action-choose",
            cell = cell.to_string(),
            cargo = with(cargo)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cell;

    fn c(name: &str) -> Cell {
        crate::engine::Board::new(13)
            .unwrap()
            .parse_cell(name)
            .unwrap()
    }

    #[test]
    fn a_move_in_both_languages() {
        let pirate = UnitRef {
            team: Team::of(1),
            kind: UnitKind::Pirate(2),
        };
        let events = [
            Event::Moved {
                unit: pirate,
                from: c("e4"),
                to: c("e5"),
                motion: Motion::Step(crate::engine::Dir::N),
                step: 0,
            },
            Event::Opened {
                cell: c("e5"),
                kind: TileKind::Chest(3),
                by: OpenedBy::Unit,
            },
            Event::Delivered {
                team: Team::of(1),
                cell: c("g1"),
                points: 2,
            },
        ];
        let en = super::events(Lang::En, &Numbered(Lang::En), &events);
        assert_eq!(en[0], "Pirate 2 (Team 1) moved to e5");
        assert!(en[1].contains("e5") && en[1].contains("3 coins"), "{en:?}");
        assert_eq!(en[2], "Team 1 scored 2 points");
        let ru = super::events(Lang::Ru, &Numbered(Lang::Ru), &events);
        assert!(ru[0].contains("Пират 2") && ru[0].contains("e5"), "{ru:?}");
        assert!(ru[1].contains("3 монеты"), "{ru:?}");
        assert!(ru[2].contains("2 очка"), "{ru:?}");
    }

    #[test]
    fn every_tile_and_cause_has_words() {
        for lang in Lang::ALL {
            for kind in [
                TileKind::Empty,
                TileKind::Maze(4),
                TileKind::Chest(1),
                TileKind::Bottles(2),
                TileKind::Caramba,
            ] {
                let name = tile(lang, kind);
                assert!(!name.starts_with("tile-"), "{name}");
            }
        }
        let died = Event::Died {
            unit: UnitRef {
                team: Team::of(2),
                kind: UnitKind::Ben,
            },
            at: c("d4"),
            cause: DeathCause::Cannibal,
        };
        let line = &super::events(Lang::En, &Numbered(Lang::En), &[died])[0];
        assert!(line.contains("Ben Gunn") && line.contains("d4"), "{line}");
    }

    #[test]
    fn endings() {
        let o = Outcome {
            winners: vec![Team::of(1), Team::of(3)],
            draw: false,
            reason: EndReason::Stall,
        };
        let text = outcome(Lang::En, &Numbered(Lang::En), &o);
        assert!(text.contains("Team 1 and Team 3"), "{text}");
    }

    #[test]
    fn actions_in_words() {
        let mut cargo = Items::NONE;
        cargo.add(Item::Coin, 1);
        let a = Action::Move {
            unit: UnitKind::Pirate(2),
            to: c("f7"),
            cargo,
        };
        assert_eq!(action(Lang::En, &a), "Pirate 2 → f7 with 1 coin");
        assert_eq!(action(Lang::Ru, &a), "Пират 2 → f7, груз: 1 монета");
    }

    /// Spans are told to the nearest hour: seconds held do not read as an hour spent.
    #[test]
    fn spans_round_to_the_nearest_hour() {
        const H: i64 = 3_600_000;
        assert_eq!(days_and_hours(Lang::En, 14 * 24 * H - 5_000), "14 days");
        assert_eq!(
            days_and_hours(Lang::En, 2 * 24 * H + 6 * H),
            "2 days 6 hours"
        );
        assert_eq!(days_and_hours(Lang::En, 29 * 60_000), "0 hours");
        assert_eq!(days_and_hours(Lang::En, 31 * 60_000), "1 hour");
    }
}
