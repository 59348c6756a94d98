//! `expect ship`, `boat` and `boats`: where a team's vessels are and how they fare.

use super::{Verdict, pass_if, unknown_expectation};
use crate::engine::board::{Board, Cell};
use crate::engine::game::Game;
use crate::engine::unit::Team;
use crate::scenario::setup::{LineError, Words};

#[derive(Clone, Debug, PartialEq)]
pub enum VesselExpectation {
    ShipAt(Team, Cell),
    ShipHits(Team, u32),
    ShipSunk(Team),
    BoatAt(Team, Cell),
    Boats(Team, u32),
}

impl VesselExpectation {
    /// Reads the statement after `keyword`: `TEAM at CELL`, `TEAM hits K` or `TEAM sunk` for
    /// `ship`, `TEAM at CELL` for `boat`, `TEAM = K` for `boats`.
    pub fn parse(keyword: &str, w: &mut Words, board: Board, teams: u8) -> Result<Self, LineError> {
        Ok(match keyword {
            "ship" => {
                let team = w.team(teams)?;
                match w.next("at, hits or sunk")? {
                    "at" => Self::ShipAt(team, w.cell(board)?),
                    "hits" => Self::ShipHits(team, w.count()?),
                    "sunk" => Self::ShipSunk(team),
                    s => return Err(w.err(format!("`{s}`: at, hits or sunk expected"))),
                }
            }
            "boat" => {
                let team = w.team(teams)?;
                w.expect("at")?;
                Self::BoatAt(team, w.cell(board)?)
            }
            "boats" => {
                let team = w.team(teams)?;
                w.expect("=")?;
                Self::Boats(team, w.count()?)
            }
            s => return Err(unknown_expectation(w, s)),
        })
    }

    pub fn check(&self, game: &Game) -> Verdict {
        match *self {
            Self::ShipAt(t, cell) => {
                let at = game.main_ship(t).map(|v| game.vessel(v).cell);
                pass_if(at == Some(cell), || match at {
                    Some(c) => format!("ship {t} at {c}"),
                    None => format!("ship {t} sunk"),
                })
            }
            Self::ShipHits(t, k) => {
                let hits = game
                    .vessels()
                    .iter()
                    .find(|v| v.owner == t && !v.boat)
                    .map_or(0, |v| v.hits as u32);
                pass_if(hits == k, || format!("ship {t} hits {hits}"))
            }
            Self::ShipSunk(t) => {
                pass_if(game.main_ship(t).is_none(), || format!("ship {t} afloat"))
            }
            Self::BoatAt(t, cell) => pass_if(
                game.vessels()
                    .iter()
                    .any(|v| v.boat && !v.sunk && v.owner == t && v.cell == cell),
                || format!("no boat of team {t} on {cell}"),
            ),
            Self::Boats(t, k) => {
                let n = game
                    .vessels()
                    .iter()
                    .filter(|v| v.boat && !v.sunk && v.owner == t)
                    .count() as u32;
                pass_if(n == k, || format!("boats {t} = {n}"))
            }
        }
    }
}
