//! Tiles and packs (RULES §2).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::board::{Dir, DirSet};

/// What a tile is. Arrows carry their (already rotated) exits and the cannon its barrel, so
/// the rest of the engine never needs to know the tile's rotation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum TileKind {
    Empty,
    Arrow(DirSet),
    Horse,
    Ice,
    Maze(u8),
    Trap,
    Crocodile,
    Cannibal,
    Fortress,
    ResFort,
    Chest(u8),
    Bullion,
    Barrel,
    Cannon(Dir),
    Balloon,
    Plane,
    Lighthouse,
    BenGunn,
    Friday,
    Missionary,
    Bottles(u8),
    Cave,
    Earthquake,
    Jungle,
    Weed,
    Caramba,
    BoatTile,
    CartTile,
    BallTile,
}

/// The seven arrow types of R-PACK-3, unrotated.
pub const ARROW_TYPES: [&[Dir]; 7] = [
    &[Dir::N],
    &[Dir::Ne],
    &[Dir::Ne, Dir::Sw],
    &[Dir::E, Dir::W],
    &[Dir::Nw, Dir::E, Dir::S],
    &[Dir::N, Dir::E, Dir::S, Dir::W],
    &[Dir::Ne, Dir::Se, Dir::Sw, Dir::Nw],
];

impl TileKind {
    /// R-PACK-2 "stop" column: can a move end here? (the cannon firer of R-BALL-1 aside)
    pub fn is_stop(self) -> bool {
        !matches!(
            self,
            TileKind::Arrow(_)
                | TileKind::Horse
                | TileKind::Ice
                | TileKind::Crocodile
                | TileKind::Cannon(_)
                | TileKind::Balloon
        )
    }

    pub fn is_fortress(self) -> bool {
        matches!(self, TileKind::Fortress | TileKind::ResFort)
    }

    /// Gold hidden in the face-down tile, in points (R-SCORE-3).
    pub fn hidden_gold(self) -> u32 {
        match self {
            TileKind::Chest(k) => k as u32,
            TileKind::Bullion => 3,
            _ => 0,
        }
    }

    /// What the face-down tile holds, appearing when it is opened (R-CHEST-1, R-ITEMTILE-1).
    pub fn contents(self) -> super::item::Items {
        use super::item::{Item, Items};
        match self {
            TileKind::Chest(k) => {
                let mut coins = Items::NONE;
                coins.add(Item::Coin, k);
                coins
            }
            TileKind::Bullion => Items::one(Item::Bar),
            TileKind::BoatTile => Items::one(Item::Boat),
            TileKind::CartTile => Items::one(Item::Cart),
            TileKind::BallTile => Items::one(Item::Ball),
            _ => Items::NONE,
        }
    }

    /// Tiles whose behaviour belongs to the expansion ("Rules engine II").
    pub fn is_expansion(self) -> bool {
        matches!(
            self,
            TileKind::Lighthouse
                | TileKind::BenGunn
                | TileKind::Friday
                | TileKind::Missionary
                | TileKind::Bottles(_)
                | TileKind::Cave
                | TileKind::Earthquake
                | TileKind::Jungle
                | TileKind::Weed
                | TileKind::Caramba
                | TileKind::BoatTile
                | TileKind::CartTile
                | TileKind::BallTile
        )
    }

    /// Tiles whose effect happens when they are opened (SCENARIOS §3.2 "tile state").
    pub fn acts_on_opening(self) -> bool {
        matches!(
            self,
            TileKind::Chest(_)
                | TileKind::Bullion
                | TileKind::BoatTile
                | TileKind::CartTile
                | TileKind::BallTile
                | TileKind::Lighthouse
                | TileKind::Earthquake
                | TileKind::Caramba
        )
    }

    /// Tiles with a first-entry trigger (R-OPEN-2).
    pub fn has_trigger(self) -> bool {
        matches!(
            self,
            TileKind::BenGunn
                | TileKind::Friday
                | TileKind::Missionary
                | TileKind::Bottles(_)
                | TileKind::Weed
        )
    }

    /// This kind turned clockwise by `quarters` (R-PACK-4); only arrows and cannons change.
    pub fn rotated(self, quarters: u8) -> TileKind {
        match self {
            TileKind::Arrow(exits) => TileKind::Arrow(exits.rotated(quarters)),
            TileKind::Cannon(d) => TileKind::Cannon(d.rotated(quarters)),
            k => k,
        }
    }

    /// Parses a pack id of R-PACK-2 (`arrow1`…`arrow7`, `cannon` pointing north, `chest3`…).
    pub fn parse_pack_id(id: &str) -> Option<TileKind> {
        // One digit after the name (`chest3`): not `chest03` or `chest+3`.
        let numbered = |prefix: &str, lo: u8, hi: u8| -> Option<u8> {
            let n = match id.strip_prefix(prefix)?.as_bytes() {
                [d @ b'0'..=b'9'] => d - b'0',
                _ => return None,
            };
            (lo..=hi).contains(&n).then_some(n)
        };
        if let Some(t) = numbered("arrow", 1, 7) {
            return Some(TileKind::Arrow(DirSet::of(ARROW_TYPES[t as usize - 1])));
        }
        if let Some(k) = numbered("maze", 2, 5) {
            return Some(TileKind::Maze(k));
        }
        if let Some(k) = numbered("chest", 1, 5) {
            return Some(TileKind::Chest(k));
        }
        if let Some(k) = numbered("bottles", 1, 3) {
            return Some(TileKind::Bottles(k));
        }
        if id == "cannon" {
            return Some(TileKind::Cannon(Dir::N));
        }
        TileKind::parse_plain(id)
    }

    /// The kinds named by a single word, identical in pack ids and scenario kinds.
    pub fn parse_plain(id: &str) -> Option<TileKind> {
        Some(match id {
            "empty" => TileKind::Empty,
            "horse" => TileKind::Horse,
            "ice" => TileKind::Ice,
            "trap" => TileKind::Trap,
            "crocodile" => TileKind::Crocodile,
            "cannibal" => TileKind::Cannibal,
            "fortress" => TileKind::Fortress,
            "resfort" => TileKind::ResFort,
            "bullion" => TileKind::Bullion,
            "barrel" => TileKind::Barrel,
            "balloon" => TileKind::Balloon,
            "plane" => TileKind::Plane,
            "lighthouse" => TileKind::Lighthouse,
            "bengunn" => TileKind::BenGunn,
            "friday" => TileKind::Friday,
            "missionary" => TileKind::Missionary,
            "cave" => TileKind::Cave,
            "earthquake" => TileKind::Earthquake,
            "jungle" => TileKind::Jungle,
            "weed" => TileKind::Weed,
            "caramba" => TileKind::Caramba,
            "boat" => TileKind::BoatTile,
            "cart" => TileKind::CartTile,
            "ball" => TileKind::BallTile,
            _ => return None,
        })
    }

    /// The pack id of a kind, where it has one (arrows only for the seven pack types).
    pub fn pack_id(self) -> Option<String> {
        Some(match self {
            TileKind::Arrow(exits) => {
                let t = (0..4u8).find_map(|r| {
                    ARROW_TYPES
                        .iter()
                        .position(|a| DirSet::of(a).rotated(r) == exits)
                })?;
                format!("arrow{}", t + 1)
            }
            TileKind::Cannon(_) => "cannon".into(),
            other => other.to_string(),
        })
    }
}

/// Scenario notation of a kind (SCENARIOS §3.2): `arrow n+e`, `cannon s`, `maze3`, `empty`…
impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileKind::Empty => f.write_str("empty"),
            TileKind::Arrow(d) => write!(f, "arrow {d}"),
            TileKind::Horse => f.write_str("horse"),
            TileKind::Ice => f.write_str("ice"),
            TileKind::Maze(k) => write!(f, "maze{k}"),
            TileKind::Trap => f.write_str("trap"),
            TileKind::Crocodile => f.write_str("crocodile"),
            TileKind::Cannibal => f.write_str("cannibal"),
            TileKind::Fortress => f.write_str("fortress"),
            TileKind::ResFort => f.write_str("resfort"),
            TileKind::Chest(k) => write!(f, "chest{k}"),
            TileKind::Bullion => f.write_str("bullion"),
            TileKind::Barrel => f.write_str("barrel"),
            TileKind::Cannon(d) => write!(f, "cannon {}", d.name()),
            TileKind::Balloon => f.write_str("balloon"),
            TileKind::Plane => f.write_str("plane"),
            TileKind::Lighthouse => f.write_str("lighthouse"),
            TileKind::BenGunn => f.write_str("bengunn"),
            TileKind::Friday => f.write_str("friday"),
            TileKind::Missionary => f.write_str("missionary"),
            TileKind::Bottles(k) => write!(f, "bottles{k}"),
            TileKind::Cave => f.write_str("cave"),
            TileKind::Earthquake => f.write_str("earthquake"),
            TileKind::Jungle => f.write_str("jungle"),
            TileKind::Weed => f.write_str("weed"),
            TileKind::Caramba => f.write_str("caramba"),
            TileKind::BoatTile => f.write_str("boat"),
            TileKind::CartTile => f.write_str("cart"),
            TileKind::BallTile => f.write_str("ball"),
        }
    }
}

/// A tile on a land cell (R-PACK-1). `used` means: the first-entry trigger fired, the plane
/// is spent, or the opening effect happened.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Tile {
    pub kind: TileKind,
    pub rotation: u8,
    pub open: bool,
    pub used: bool,
}

impl Tile {
    pub fn fog(kind: TileKind, rotation: u8) -> Tile {
        Tile {
            kind,
            rotation,
            open: false,
            used: false,
        }
    }

    pub fn open(kind: TileKind) -> Tile {
        Tile {
            kind,
            rotation: 0,
            open: true,
            used: false,
        }
    }

    /// The kind as it acts now: a fired trigger, a spent plane or an opened chest is empty.
    pub fn effective(&self) -> TileKind {
        if self.used
            && (self.kind.has_trigger()
                || self.kind.acts_on_opening()
                || self.kind == TileKind::Plane)
        {
            TileKind::Empty
        } else {
            self.kind
        }
    }
}

/// A pack of tiles (R-PACK-5, R-PACK-6).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Pack {
    Classic,
    Full,
    Custom(Vec<(TileKind, u16)>),
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PackError {
    #[error("`{0}` is not a tile id")]
    UnknownTile(String),
    #[error("`{0}` is not of the form id*count")]
    BadEntry(String),
    #[error("a pack holds at most one {0}")]
    TooManySpecial(&'static str),
    #[error("a pack of {0} tiles: a pack holds at most {MAX_PACK_TILES}")]
    TooLarge(u64),
}

/// The most tiles a pack may hold. The island takes at most 117 (13×13); a larger pack is
/// shuffled whole on each of up to 1000 tries for a deal that meets R-MAP-2, so a pack of
/// millions of tiles (65535 per entry, any number of entries) would hold the deal, and
/// whoever waits for it, for hours.
pub const MAX_PACK_TILES: u64 = 1000;

impl Pack {
    pub fn full() -> Pack {
        Pack::Full
    }

    /// How many tiles the pack holds, counted without listing them.
    pub fn size(&self) -> u64 {
        let counts = match self {
            Pack::Custom(list) => return list.iter().map(|(_, n)| u64::from(*n)).sum(),
            _ => self.counts(),
        };
        counts.iter().map(|(_, n)| u64::from(*n)).sum()
    }

    fn counts(&self) -> Vec<(TileKind, u16)> {
        let classic = self == &Pack::Classic;
        let pick = |c: u16, f: u16| if classic { c } else { f };
        let mut list = vec![(TileKind::Empty, pick(40, 15))];
        for exits in ARROW_TYPES {
            list.push((TileKind::Arrow(DirSet::of(exits)), 3));
        }
        list.extend([
            (TileKind::Horse, 2),
            (TileKind::Ice, 6),
            (TileKind::Maze(2), 5),
            (TileKind::Maze(3), 4),
            (TileKind::Maze(4), 2),
            (TileKind::Maze(5), 1),
            (TileKind::Trap, 3),
            (TileKind::Crocodile, 4),
            (TileKind::Cannibal, 1),
            (TileKind::Fortress, 2),
            (TileKind::ResFort, 1),
            (TileKind::Chest(1), 5),
            (TileKind::Chest(2), 5),
            (TileKind::Chest(3), 3),
            (TileKind::Chest(4), 2),
            (TileKind::Chest(5), 1),
            (TileKind::Bullion, pick(0, 1)),
            (TileKind::Barrel, 4),
            (TileKind::Cannon(Dir::N), 2),
            (TileKind::Balloon, 2),
            (TileKind::Plane, 1),
            (TileKind::Lighthouse, pick(0, 1)),
            (TileKind::BenGunn, pick(0, 1)),
            (TileKind::Friday, pick(0, 1)),
            (TileKind::Missionary, pick(0, 1)),
            (TileKind::Bottles(1), pick(0, 3)),
            (TileKind::Bottles(2), pick(0, 2)),
            (TileKind::Bottles(3), pick(0, 1)),
            (TileKind::Cave, pick(0, 4)),
            (TileKind::Earthquake, pick(0, 1)),
            (TileKind::Jungle, pick(0, 3)),
            (TileKind::Weed, pick(0, 2)),
            (TileKind::Caramba, 0),
            (TileKind::BoatTile, pick(0, 1)),
            (TileKind::CartTile, pick(0, 1)),
            (TileKind::BallTile, pick(0, 2)),
        ]);
        list
    }

    /// The pack's tiles in canonical order (R-PACK-6), unrotated.
    pub fn tiles(&self) -> Vec<TileKind> {
        let counts = match self {
            Pack::Custom(list) => list.clone(),
            _ => self.counts(),
        };
        counts
            .into_iter()
            .flat_map(|(k, n)| std::iter::repeat_n(k, n as usize))
            .collect()
    }

    /// `full`, `classic`, or a custom list `id*count,…` (R-PACK-6).
    pub fn parse(text: &str) -> Result<Pack, PackError> {
        match text {
            "classic" => return Ok(Pack::Classic),
            "full" => return Ok(Pack::Full),
            _ => {}
        }
        let mut list = Vec::new();
        for entry in text.split(',') {
            let (id, count) = entry
                .split_once('*')
                .ok_or_else(|| PackError::BadEntry(entry.into()))?;
            let kind =
                TileKind::parse_pack_id(id).ok_or_else(|| PackError::UnknownTile(id.into()))?;
            // Digits only: Rust's parsing would take `+20` as well.
            let count: u16 = (!count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()))
                .then(|| count.parse().ok())
                .flatten()
                .ok_or_else(|| PackError::BadEntry(entry.into()))?;
            list.push((kind, count));
        }
        let pack = Pack::Custom(list);
        if pack.size() > MAX_PACK_TILES {
            return Err(PackError::TooLarge(pack.size()));
        }
        let tiles = pack.tiles();
        for (kind, name) in [
            (TileKind::BenGunn, "bengunn"),
            (TileKind::Friday, "friday"),
            (TileKind::Missionary, "missionary"),
        ] {
            if tiles.iter().filter(|k| **k == kind).count() > 1 {
                return Err(PackError::TooManySpecial(name));
            }
        }
        Ok(pack)
    }
}

impl fmt::Display for Pack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pack::Classic => f.write_str("classic"),
            Pack::Full => f.write_str("full"),
            Pack::Custom(list) => {
                let parts: Vec<String> = list
                    .iter()
                    .map(|(k, n)| format!("{}*{n}", k.pack_id().unwrap_or_default()))
                    .collect();
                f.write_str(&parts.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_hold_117_tiles_and_the_right_gold() {
        for (pack, gold) in [(Pack::Classic, 37u32), (Pack::Full, 40)] {
            let tiles = pack.tiles();
            assert_eq!(tiles.len(), 117);
            assert_eq!(tiles.iter().map(|k| k.hidden_gold()).sum::<u32>(), gold);
        }
    }

    #[test]
    fn custom_pack_round_trips() {
        let p = Pack::parse("chest5*20,empty*97,arrow3*1").unwrap();
        assert_eq!(p.tiles().len(), 118);
        assert_eq!(p.to_string(), "chest5*20,empty*97,arrow3*1");
        assert!(Pack::parse("friday*2").is_err());
        assert!(Pack::parse("dragon*2").is_err());
        assert_eq!(Pack::Full.size(), 117);
        assert_eq!(Pack::parse("empty*500,chest5*500").unwrap().size(), 1000);
    }

    /// A pack larger than any deal needs used to be accepted from a setting's value (the
    /// lobby, a scenario), a stored game or an import, and dealing one of millions of tiles
    /// held the deal for minutes (each try shuffles the whole pack).
    #[test]
    fn a_pack_past_the_limit_is_refused() {
        use crate::engine::{Game, SetupError};
        assert_eq!(
            Pack::parse("empty*1000,chest1*1"),
            Err(PackError::TooLarge(1001))
        );
        let many = vec!["empty*65535"; 100].join(",");
        assert_eq!(Pack::parse(&many), Err(PackError::TooLarge(6_553_500)));
        // The same pack read from JSON, not through `parse`.
        let settings = crate::engine::Settings {
            tile_pack: Pack::Custom(vec![(TileKind::Empty, 65535); 100]),
            ..crate::engine::Settings::default()
        };
        assert_eq!(
            Game::new(settings, 1),
            Err(SetupError::PackTooLarge(6_553_500))
        );
    }
}
