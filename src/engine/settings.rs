//! Game settings (RULES §20), fixed when a game starts.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::board::Board;
use super::tile::Pack;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Players {
    Two,
    Three,
    Four,
    TwoVsTwo,
}

impl Players {
    pub fn parse(text: &str) -> Option<Players> {
        match text {
            "2" => Some(Players::Two),
            "3" => Some(Players::Three),
            "4" => Some(Players::Four),
            "2x2" => Some(Players::TwoVsTwo),
            _ => None,
        }
    }

    pub fn team_count(self) -> u8 {
        match self {
            Players::Two => 2,
            Players::Three => 3,
            Players::Four | Players::TwoVsTwo => 4,
        }
    }
}

impl fmt::Display for Players {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Players::Two => "2",
            Players::Three => "3",
            Players::Four => "4",
            Players::TwoVsTwo => "2x2",
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum PlaneSeats {
    Two,
    One,
    Chosen,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum RetreatDistance {
    King,
    Taxicab,
    Euclid,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Settings {
    pub board_size: u8,
    pub players: Players,
    pub tile_pack: Pack,
    pub plane_seats: PlaneSeats,
    pub retreat_distance: RetreatDistance,
    pub restriction_kills: bool,
    pub missionary_blocks_attack: bool,
    pub cannonball_kills: bool,
    pub fortress_vs_cannonball: bool,
    pub cannonball_spares_fog: bool,
    pub no_wasted_rum: bool,
    pub no_trapped_rum: bool,
    pub boardgame_caves: bool,
    pub destroying_ships: bool,
    pub friendly_fire: bool,
    pub stall_rounds: u16,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            board_size: 13,
            players: Players::Two,
            tile_pack: Pack::full(),
            plane_seats: PlaneSeats::Two,
            retreat_distance: RetreatDistance::King,
            restriction_kills: false,
            missionary_blocks_attack: false,
            cannonball_kills: false,
            fortress_vs_cannonball: true,
            cannonball_spares_fog: false,
            no_wasted_rum: true,
            no_trapped_rum: false,
            boardgame_caves: false,
            destroying_ships: false,
            friendly_fire: false,
            stall_rounds: 50,
        }
    }
}

/// Why a setting could not be applied.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SettingError {
    #[error(
        "unknown setting `{id}` (the settings are {list})",
        id = crate::visible::visible(.0),
        list = SETTING_IDS.join(", ")
    )]
    UnknownSetting(String),
    #[error(
        "`{shown}` is not a valid value for `{id}` (expected {expected})",
        shown = crate::visible::visible(.value)
    )]
    BadValue {
        id: String,
        value: String,
        expected: &'static str,
    },
    /// A tile pack that names an unknown tile or too many special ones.
    #[error(
        "`{shown}` is not a valid tile_pack: {why} (expected full, classic or a list such as chest5*20,empty*97)",
        shown = crate::visible::visible(.value)
    )]
    BadPack {
        value: String,
        why: super::tile::PackError,
    },
}

/// Every engine setting's id (RULES §20), for the error naming an unknown one.
pub const SETTING_IDS: [&str; 16] = [
    "board_size",
    "players",
    "tile_pack",
    "plane_seats",
    "retreat_distance",
    "restriction_kills",
    "missionary_blocks_attack",
    "cannonball_kills",
    "fortress_vs_cannonball",
    "cannonball_spares_fog",
    "no_wasted_rum",
    "no_trapped_rum",
    "boardgame_caves",
    "destroying_ships",
    "friendly_fire",
    "stall_rounds",
];

/// A number written in digits alone: Rust's own parsing would take `+9` as well, which no
/// setting's value is (RULES §20).
fn number<T: std::str::FromStr>(value: &str) -> Option<T> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

fn parse_bool(id: &str, value: &str) -> Result<bool, SettingError> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(SettingError::BadValue {
            id: id.into(),
            value: value.into(),
            expected: "on or off",
        }),
    }
}

impl Settings {
    pub fn board(&self) -> Board {
        Board::new(self.board_size).expect("board size validated on set")
    }

    /// Sets one setting from its textual id and value (RULES §20), as the scenario format and
    /// the lobby write them.
    pub fn set(&mut self, id: &str, value: &str) -> Result<(), SettingError> {
        let bad = |expected: &'static str| SettingError::BadValue {
            id: id.into(),
            value: value.into(),
            expected,
        };
        match id {
            "board_size" => {
                let n: u8 = number(value).ok_or_else(|| bad("5, 7, 9, 11 or 13"))?;
                Board::new(n).ok_or_else(|| bad("5, 7, 9, 11 or 13"))?;
                self.board_size = n;
            }
            "players" => {
                self.players = Players::parse(value).ok_or_else(|| bad("2, 3, 4 or 2x2"))?
            }
            "tile_pack" => {
                self.tile_pack = Pack::parse(value).map_err(|why| SettingError::BadPack {
                    value: value.into(),
                    why,
                })?
            }
            "plane_seats" => {
                self.plane_seats = match value {
                    "two" => PlaneSeats::Two,
                    "one" => PlaneSeats::One,
                    "chosen" => PlaneSeats::Chosen,
                    _ => return Err(bad("two, one or chosen")),
                }
            }
            "retreat_distance" => {
                self.retreat_distance = match value {
                    "king" => RetreatDistance::King,
                    "taxicab" => RetreatDistance::Taxicab,
                    "euclid" => RetreatDistance::Euclid,
                    _ => return Err(bad("king, taxicab or euclid")),
                }
            }
            "restriction_kills" => self.restriction_kills = parse_bool(id, value)?,
            "missionary_blocks_attack" => self.missionary_blocks_attack = parse_bool(id, value)?,
            "cannonball_kills" => self.cannonball_kills = parse_bool(id, value)?,
            "fortress_vs_cannonball" => self.fortress_vs_cannonball = parse_bool(id, value)?,
            "cannonball_spares_fog" => self.cannonball_spares_fog = parse_bool(id, value)?,
            "no_wasted_rum" => self.no_wasted_rum = parse_bool(id, value)?,
            "no_trapped_rum" => self.no_trapped_rum = parse_bool(id, value)?,
            "boardgame_caves" => self.boardgame_caves = parse_bool(id, value)?,
            "destroying_ships" => self.destroying_ships = parse_bool(id, value)?,
            "friendly_fire" => self.friendly_fire = parse_bool(id, value)?,
            "stall_rounds" => {
                let v: u16 = number(value).ok_or_else(|| bad("a number from 0 to 1000"))?;
                if v > 1000 {
                    return Err(bad("a number from 0 to 1000"));
                }
                self.stall_rounds = v;
            }
            _ => return Err(SettingError::UnknownSetting(id.into())),
        }
        Ok(())
    }

    /// One setting's value as [`Settings::set`] reads it (`None` for an unknown id): what the
    /// lobby shows and what a settings menu offers back.
    pub fn get(&self, id: &str) -> Option<String> {
        let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
        Some(match id {
            "board_size" => self.board_size.to_string(),
            "players" => self.players.to_string(),
            "tile_pack" => self.tile_pack.to_string(),
            "plane_seats" => match self.plane_seats {
                PlaneSeats::Two => "two",
                PlaneSeats::One => "one",
                PlaneSeats::Chosen => "chosen",
            }
            .to_string(),
            "retreat_distance" => match self.retreat_distance {
                RetreatDistance::King => "king",
                RetreatDistance::Taxicab => "taxicab",
                RetreatDistance::Euclid => "euclid",
            }
            .to_string(),
            "restriction_kills" => on_off(self.restriction_kills),
            "missionary_blocks_attack" => on_off(self.missionary_blocks_attack),
            "cannonball_kills" => on_off(self.cannonball_kills),
            "fortress_vs_cannonball" => on_off(self.fortress_vs_cannonball),
            "cannonball_spares_fog" => on_off(self.cannonball_spares_fog),
            "no_wasted_rum" => on_off(self.no_wasted_rum),
            "no_trapped_rum" => on_off(self.no_trapped_rum),
            "boardgame_caves" => on_off(self.boardgame_caves),
            "destroying_ships" => on_off(self.destroying_ships),
            "friendly_fire" => on_off(self.friendly_fire),
            "stall_rounds" => self.stall_rounds.to_string(),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod get_tests {
    use super::*;

    /// `get` gives back what `set` reads, for every setting.
    #[test]
    fn every_setting_reads_back() {
        let mut s = Settings::default();
        for id in SETTING_IDS {
            let value = s.get(id).unwrap_or_else(|| panic!("no value for {id}"));
            let before = s.clone();
            s.set(id, &value)
                .unwrap_or_else(|e| panic!("{id} = {value}: {e}"));
            assert_eq!(s, before, "{id}");
        }
        assert_eq!(s.get("nonsense"), None);
    }
}
