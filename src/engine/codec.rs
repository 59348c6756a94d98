//! Compact serde forms for the bulky parts of a game state.
//!
//! The store writes the whole state as a snapshot every few plies, inside the transaction of
//! the action that reaches that ply; in the plain derived form a 13×13 state was 12 KB of
//! JSON, most of it 169 tiles spelled out as objects and 169 empty item lists. Here the tiles
//! are one short string and only the cells holding items are listed, which brings a state to
//! a fifth of that: it fits in one database page.
//!
//! Both readers also take the older, derived form, so states written before this module
//! existed still load.

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserializer, Serialize, Serializer};

use super::board::{Dir, DirSet};
use super::item::Items;
use super::tile::{Tile, TileKind};

/// A tile as a token: a letter for the kind, the kind's number if it has one, a dot, the
/// rotation, then `o` if face up and `u` if used (`a170.0`, `m4.3o`, `g1.1ou`). A cell with
/// no tile (the sea) is `-`. Tokens are separated by single spaces.
pub(crate) mod tiles {
    use super::*;

    pub fn serialize<S: Serializer>(tiles: &[Option<Tile>], s: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(tiles.len() * 6);
        for (i, tile) in tiles.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            match tile {
                None => text.push('-'),
                Some(tile) => write_tile(&mut text, tile),
            }
        }
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Option<Tile>>, D::Error> {
        d.deserialize_any(TilesVisitor)
    }

    struct TilesVisitor;

    impl<'de> Visitor<'de> for TilesVisitor {
        type Value = Vec<Option<Tile>>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string of tile tokens, or a list of tiles")
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
            if text.is_empty() {
                return Ok(Vec::new());
            }
            text.split(' ')
                .map(|token| match token {
                    "-" => Ok(None),
                    _ => read_tile(token)
                        .map(Some)
                        .ok_or_else(|| E::custom(format!("bad tile token `{token}`"))),
                })
                .collect()
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(tile) = seq.next_element::<Option<Tile>>()? {
                out.push(tile);
            }
            Ok(out)
        }
    }
}

/// The letter of each kind, and whether a number follows it.
fn kind_code(kind: TileKind) -> (char, Option<u8>) {
    match kind {
        TileKind::Empty => ('e', None),
        TileKind::Arrow(exits) => ('a', Some(exits.0)),
        TileKind::Horse => ('h', None),
        TileKind::Ice => ('i', None),
        TileKind::Maze(steps) => ('m', Some(steps)),
        TileKind::Trap => ('t', None),
        TileKind::Crocodile => ('c', None),
        TileKind::Cannibal => ('k', None),
        TileKind::Fortress => ('f', None),
        TileKind::ResFort => ('r', None),
        TileKind::Chest(coins) => ('g', Some(coins)),
        TileKind::Bullion => ('b', None),
        TileKind::Barrel => ('u', None),
        TileKind::Cannon(dir) => ('n', Some(dir.index() as u8)),
        TileKind::Balloon => ('l', None),
        TileKind::Plane => ('p', None),
        TileKind::Lighthouse => ('L', None),
        TileKind::BenGunn => ('B', None),
        TileKind::Friday => ('F', None),
        TileKind::Missionary => ('M', None),
        TileKind::Bottles(n) => ('o', Some(n)),
        TileKind::Cave => ('C', None),
        TileKind::Earthquake => ('E', None),
        TileKind::Jungle => ('J', None),
        TileKind::Weed => ('W', None),
        TileKind::Caramba => ('K', None),
        TileKind::BoatTile => ('S', None),
        TileKind::CartTile => ('T', None),
        TileKind::BallTile => ('A', None),
    }
}

fn kind_from_code(code: char, number: Option<u8>) -> Option<TileKind> {
    let plain = |kind| number.is_none().then_some(kind);
    match (code, number) {
        ('a', Some(n)) => Some(TileKind::Arrow(DirSet(n))),
        ('m', Some(n)) => Some(TileKind::Maze(n)),
        ('g', Some(n)) => Some(TileKind::Chest(n)),
        ('n', Some(n)) if n < 8 => Some(TileKind::Cannon(Dir::from_index(n as usize))),
        ('o', Some(n)) => Some(TileKind::Bottles(n)),
        ('e', _) => plain(TileKind::Empty),
        ('h', _) => plain(TileKind::Horse),
        ('i', _) => plain(TileKind::Ice),
        ('t', _) => plain(TileKind::Trap),
        ('c', _) => plain(TileKind::Crocodile),
        ('k', _) => plain(TileKind::Cannibal),
        ('f', _) => plain(TileKind::Fortress),
        ('r', _) => plain(TileKind::ResFort),
        ('b', _) => plain(TileKind::Bullion),
        ('u', _) => plain(TileKind::Barrel),
        ('l', _) => plain(TileKind::Balloon),
        ('p', _) => plain(TileKind::Plane),
        ('L', _) => plain(TileKind::Lighthouse),
        ('B', _) => plain(TileKind::BenGunn),
        ('F', _) => plain(TileKind::Friday),
        ('M', _) => plain(TileKind::Missionary),
        ('C', _) => plain(TileKind::Cave),
        ('E', _) => plain(TileKind::Earthquake),
        ('J', _) => plain(TileKind::Jungle),
        ('W', _) => plain(TileKind::Weed),
        ('K', _) => plain(TileKind::Caramba),
        ('S', _) => plain(TileKind::BoatTile),
        ('T', _) => plain(TileKind::CartTile),
        ('A', _) => plain(TileKind::BallTile),
        _ => None,
    }
}

fn write_tile(out: &mut String, tile: &Tile) {
    use std::fmt::Write;
    let (code, number) = kind_code(tile.kind);
    out.push(code);
    if let Some(n) = number {
        write!(out, "{n}").expect("writing to a String");
    }
    out.push('.');
    out.push(char::from(b'0' + tile.rotation % 4));
    if tile.open {
        out.push('o');
    }
    if tile.used {
        out.push('u');
    }
}

fn read_tile(token: &str) -> Option<Tile> {
    let (kind, rest) = token.split_once('.')?;
    let mut chars = kind.chars();
    let code = chars.next()?;
    let digits = chars.as_str();
    let number = match digits {
        "" => None,
        _ => Some(digits.parse::<u8>().ok()?),
    };
    let mut rest = rest.chars();
    let rotation = rest.next()?.to_digit(10).filter(|r| *r < 4)? as u8;
    let flags = rest.as_str();
    let (open, used) = match flags {
        "" => (false, false),
        "o" => (true, false),
        "u" => (false, true),
        "ou" => (true, true),
        _ => return None,
    };
    Some(Tile {
        kind: kind_from_code(code, number)?,
        rotation,
        open,
        used,
    })
}

/// The items lying on each cell: `{"len": cells, "at": [[cell index, items], …]}` listing
/// only the cells that hold something.
pub(crate) mod cell_items {
    use super::*;

    /// The cells of the largest board (13×13, sea and corners included).
    const MAX_CELLS: usize = 13 * 13;

    pub fn serialize<S: Serializer>(items: &[Items], s: S) -> Result<S::Ok, S::Error> {
        struct Listed<'a>(&'a [Items]);
        impl Serialize for Listed<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(
                    self.0
                        .iter()
                        .enumerate()
                        .filter(|(_, items)| !items.is_empty()),
                )
            }
        }
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("len", &items.len())?;
        map.serialize_entry("at", &Listed(items))?;
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Items>, D::Error> {
        d.deserialize_any(ItemsVisitor)
    }

    struct ItemsVisitor;

    impl<'de> Visitor<'de> for ItemsVisitor {
        type Value = Vec<Items>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("the items of each cell, listed or sparse")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(items) = seq.next_element::<Items>()? {
                out.push(items);
            }
            Ok(out)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut len = None;
            let mut at: Option<Vec<(usize, Items)>> = None;
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "len" => len = Some(map.next_value::<usize>()?),
                    "at" => at = Some(map.next_value()?),
                    other => return Err(de::Error::unknown_field(other, &["len", "at"])),
                }
            }
            let len = len.ok_or_else(|| de::Error::missing_field("len"))?;
            // A damaged `len` must not allocate gigabytes: no board has more cells.
            if len > MAX_CELLS {
                return Err(de::Error::custom(format!(
                    "{len} cells: a board has at most {MAX_CELLS}"
                )));
            }
            let mut out = vec![Items::NONE; len];
            for (cell, items) in at.unwrap_or_default() {
                *out.get_mut(cell)
                    .ok_or_else(|| de::Error::custom(format!("cell {cell} of {len}")))? = items;
            }
            Ok(out)
        }
    }
}

/// For `skip_serializing_if` on flags that are usually off.
pub(crate) fn is_false(flag: &bool) -> bool {
    !*flag
}

/// For `skip_serializing_if` on counters that are usually zero.
pub(crate) fn is_zero(n: &u8) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Action;
    use crate::engine::board::Cell;
    use serde::Deserialize;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Board {
        #[serde(with = "tiles")]
        tiles: Vec<Option<Tile>>,
        #[serde(with = "cell_items")]
        items: Vec<Items>,
    }

    fn every_kind() -> Vec<TileKind> {
        let mut kinds = vec![
            TileKind::Empty,
            TileKind::Arrow(DirSet(0b1010_1010)),
            TileKind::Arrow(DirSet(1)),
            TileKind::Maze(5),
            TileKind::Chest(3),
            TileKind::Bottles(2),
        ];
        kinds.extend(Dir::ALL.map(TileKind::Cannon));
        for code in "hitckfrbulpLBFMCEJWKSTA".chars() {
            kinds.push(kind_from_code(code, None).expect("a plain kind"));
        }
        kinds
    }

    #[test]
    fn every_tile_round_trips_through_its_token() {
        for kind in every_kind() {
            // Each kind has its own code: the code read back is the kind written.
            let (code, number) = kind_code(kind);
            assert_eq!(kind_from_code(code, number), Some(kind));
            for rotation in 0..4 {
                for (open, used) in [(false, false), (true, false), (false, true), (true, true)] {
                    let tile = Tile {
                        kind,
                        rotation,
                        open,
                        used,
                    };
                    let mut token = String::new();
                    write_tile(&mut token, &tile);
                    assert_eq!(read_tile(&token), Some(tile), "{token}");
                }
            }
        }
    }

    #[test]
    fn bad_tokens_are_refused() {
        for token in [
            "", "x.0", "a.0", "e1.0", "e.4", "e.0x", "n9.0", "e", "m300.0",
        ] {
            assert_eq!(read_tile(token), None, "{token}");
        }
        let json = r#"{"tiles":"e.0 zz","items":[]}"#;
        assert!(serde_json::from_str::<Board>(json).is_err());
        let json = r#"{"tiles":"","items":{"len":1,"at":[[3,[1,0,0,0,0]]]}}"#;
        assert!(serde_json::from_str::<Board>(json).is_err());
        // A damaged length used to allocate that many cells (found by tests/service/fuzz.rs: 2^32
        // cells ran for minutes; 2^64 - 1 panics).
        for len in ["170", "4294967295", "18446744073709551615"] {
            let json = format!(r#"{{"tiles":"","items":{{"len":{len},"at":[]}}}}"#);
            assert!(serde_json::from_str::<Board>(&json).is_err(), "{len}");
        }
        let json = r#"{"tiles":"","items":{"len":169,"at":[]}}"#;
        assert_eq!(
            serde_json::from_str::<Board>(json).unwrap().items.len(),
            169
        );
    }

    #[test]
    fn cells_are_pairs_and_read_back_in_both_forms() {
        let cell = Cell { col: 2, row: 9 };
        assert_eq!(serde_json::to_string(&cell).unwrap(), "[2,9]");
        assert_eq!(serde_json::from_str::<Cell>("[2,9]").unwrap(), cell);
        assert_eq!(
            serde_json::from_str::<Cell>(r#"{"col":2,"row":9}"#).unwrap(),
            cell
        );
        // No board has a cell beyond m13: `[255, 0]` in an imported action used to reach
        // the notation, whose letter overflowed (found by tests/service/fuzz.rs).
        assert!(serde_json::from_str::<Cell>("[12,12]").is_ok());
        for bad in ["[255,0]", "[0,13]", r#"{"col":13,"row":0}"#] {
            assert!(serde_json::from_str::<Cell>(bad).is_err(), "{bad}");
        }
        // An action as stored before cells were pairs.
        let old = r#"{"Move":{"unit":{"Pirate":1},"to":{"col":0,"row":1},"cargo":[0,0,0,0,0]}}"#;
        let action: Action = serde_json::from_str(old).unwrap();
        let new = serde_json::to_string(&action).unwrap();
        assert_eq!(
            new,
            r#"{"Move":{"unit":{"Pirate":1},"to":[0,1],"cargo":[0,0,0,0,0]}}"#
        );
        assert_eq!(serde_json::from_str::<Action>(&new).unwrap(), action);
    }

    #[test]
    fn boards_are_compact_and_read_back_in_both_forms() {
        let tile = |kind, open| {
            Some(Tile {
                kind,
                rotation: 1,
                open,
                used: false,
            })
        };
        let board = Board {
            tiles: vec![
                None,
                tile(TileKind::Maze(4), true),
                tile(TileKind::Trap, false),
            ],
            items: vec![
                Items::NONE,
                serde_json::from_str("[2,0,0,0,1]").unwrap(),
                Items::NONE,
            ],
        };
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(
            json,
            r#"{"tiles":"- m4.1o t.1","items":{"len":3,"at":[[1,[2,0,0,0,1]]]}}"#
        );
        assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), board);
        // The derived form written before this codec.
        let old = r#"{"tiles":[null,{"kind":{"Maze":4},"rotation":1,"open":true,"used":false},
            {"kind":"Trap","rotation":1,"open":false,"used":false}],
            "items":[[0,0,0,0,0],[2,0,0,0,1],[0,0,0,0,0]]}"#;
        assert_eq!(serde_json::from_str::<Board>(old).unwrap(), board);
    }
}
