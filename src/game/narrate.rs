//! Engine events in words, for history lines and board posts ("Pirate 2 stepped on c5:
//! crocodile, back to c4"). English here; the Discord layer localises the posts it sends.

use crate::engine::{DeathCause, Event, Motion, Outcome, UnitKind, UnitRef};

fn unit_name(u: &UnitRef) -> String {
    let who = match u.kind {
        UnitKind::Pirate(n) => format!("Pirate {n}"),
        UnitKind::Ben => "Ben Gunn".into(),
        UnitKind::Friday => "Friday".into(),
        UnitKind::Missionary => "The missionary".into(),
    };
    format!("{who} of team {}", u.team)
}

fn cause_text(c: DeathCause) -> &'static str {
    match c {
        DeathCause::Drowned => "drowned",
        DeathCause::EnemyVessel => "landed on an enemy ship",
        DeathCause::Forbidden => "was carried where it may not go",
        DeathCause::Restriction => "broke a restriction with its cargo",
        DeathCause::Cannibal => "was eaten by the cannibal",
        DeathCause::Loop => "went round in a loop",
        DeathCause::NowhereToGo => "had nowhere to go",
        DeathCause::NoVessel => "had no ship to go to",
        DeathCause::Cannonball => "was hit by a cannonball",
        DeathCause::Rum => "drank rum",
        DeathCause::FridayMissionary => "met the other side's Friday or missionary",
        DeathCause::Eliminated => "lost with its team",
    }
}

/// One short line per notable event.
pub fn describe(events: &[Event]) -> Vec<String> {
    let mut out = Vec::new();
    for e in events {
        let line = match e {
            Event::Moved {
                unit, to, motion, ..
            } => {
                let how = match motion {
                    Motion::Step(_) => "moved to",
                    Motion::Jump(..) => "jumped to",
                    Motion::Flight => "flew to",
                    Motion::Shot => "was shot to",
                    Motion::Balloon => "flew by balloon to",
                    Motion::Tunnel => "went through the tunnel to",
                    Motion::Advance => "went deeper into the maze on",
                };
                format!("{} {how} {to}", unit_name(unit))
            }
            Event::Opened { cell, kind } => format!("{cell} opened: {kind}"),
            Event::Appeared { cell, items } => format!("{} appeared on {cell}", items.list()),
            Event::CargoReturned { cell, items } => {
                format!("{} went back to {cell}", items.list())
            }
            Event::Lost { cell, items } => format!("{} lost at {cell}", items.list()),
            Event::Delivered { team, points, .. } => {
                format!("team {team} scored {points}")
            }
            Event::KnockedOut { unit, to, .. } => {
                format!("{} was knocked out to the ship at {to}", unit_name(unit))
            }
            Event::Died { unit, at, cause } => {
                format!("{} {} at {at}", unit_name(unit), cause_text(*cause))
            }
            Event::Joined { unit, team } => format!("{} joined team {team}", unit_name(unit)),
            Event::Drunk { unit } => format!("{} is drunk", unit_name(unit)),
            Event::Trapped { unit } => format!("{} fell into the trap", unit_name(unit)),
            Event::Freed { unit } => format!("{} is free", unit_name(unit)),
            Event::Seated { unit, .. } => format!("{} took a seat in the plane", unit_name(unit)),
            Event::VesselMoved { team, to, .. } => format!("team {team}'s ship sailed to {to}"),
            Event::Resurrected { unit, at } => {
                format!("{} came back to life at {at}", unit_name(unit))
            }
            Event::TurnSkipped { team } => format!("team {team} could not move and was skipped"),
            Event::GameOver(o) => outcome_text(o),
            Event::PutDown { .. }
            | Event::Stowed { .. }
            | Event::Sobered { .. }
            | Event::PlaneSpent { .. }
            | Event::RumServed { .. }
            | Event::ChoiceRequired { .. }
            | Event::TurnStarted { .. } => continue,
        };
        out.push(line);
    }
    out
}

pub fn outcome_text(o: &Outcome) -> String {
    let teams: Vec<String> = o.winners.iter().map(|t| t.to_string()).collect();
    if o.draw {
        format!(
            "Game over: a draw between teams {} ({})",
            teams.join(", "),
            o.reason.id()
        )
    } else {
        format!(
            "Game over: team {} won ({})",
            teams.join(" and "),
            o.reason.id()
        )
    }
}

/// What a cancelled game says.
pub const CANCELLED: &str = "The game was cancelled.";

/// What a duel lost by resignation says.
pub fn resigned_text(team: u8, winner: u8) -> String {
    format!("Team {team} resigned: team {winner} wins.")
}

/// How a game that ended outside the engine ended (a resignation, a cancellation), in words,
/// from the result stored on its row; `None` for an engine outcome or an unknown result.
pub fn stored_ending(result: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(result).ok()?;
    if value.get("cancelled").is_some() {
        return Some(CANCELLED.into());
    }
    let team = u8::try_from(value.get("resigned")?.as_u64()?).ok()?;
    let winner = u8::try_from(value.get("winners")?.get(0)?.as_u64()?).ok()?;
    Some(resigned_text(team, winner))
}
