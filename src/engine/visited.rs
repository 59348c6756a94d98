//! The positions a chain has entered (R-CHAIN-6), kept without touching the allocator for the
//! few entries nearly every move makes: a chain starts on every unit move, and a heap list
//! for its one or two entries cost an allocation a ply.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::action::Motion;
use super::board::Cell;

/// One entry: the cell, its maze step (0 off mazes) and how the unit came in.
pub(crate) type Entered = (Cell, u8, Motion);

/// Entries held in place before the rest go to the heap: most chains end within a few.
const INLINE: usize = 6;

/// The entered positions of one chain, in order. Written as a plain list, as before.
#[derive(Clone, Debug, Default)]
pub struct Visited {
    first: [Entered; INLINE],
    len: u8,
    /// The entries after the first `INLINE`, only for long chains.
    rest: Vec<Entered>,
}

impl Visited {
    pub(crate) fn push(&mut self, entry: Entered) {
        let n = self.len as usize;
        if n < INLINE {
            self.first[n] = entry;
            self.len += 1;
        } else {
            self.rest.push(entry);
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Entered> {
        self.first[..self.len as usize].iter().chain(&self.rest)
    }

    pub(crate) fn contains(&self, entry: &Entered) -> bool {
        self.first[..self.len as usize].contains(entry) || self.rest.contains(entry)
    }
}

impl PartialEq for Visited {
    fn eq(&self, other: &Visited) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Visited {}

impl Serialize for Visited {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Visited {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Visited, D::Error> {
        let mut out = Visited::default();
        for entry in Vec::<Entered>::deserialize(d)? {
            out.push(entry);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Dir;

    /// Past the entries held in place the list goes on in order, compares by its entries and
    /// reads back from the JSON it writes, which is the plain list a `Vec` wrote.
    #[test]
    fn a_long_chain_keeps_its_order_and_its_json() {
        let entries: Vec<Entered> = (0..10)
            .map(|i| (Cell::new(i, 2), i % 3, Motion::Step(Dir::N)))
            .collect();
        let mut visited = Visited::default();
        entries.iter().for_each(|e| visited.push(*e));
        assert!(visited.iter().eq(entries.iter()));
        assert!(visited.contains(&entries[8]));
        assert!(!visited.contains(&(Cell::new(0, 0), 0, Motion::Flight)));
        let json = serde_json::to_string(&visited).unwrap();
        assert_eq!(json, serde_json::to_string(&entries).unwrap());
        let back: Visited = serde_json::from_str(&json).unwrap();
        assert_eq!(back, visited);
        let mut short = Visited::default();
        short.push(entries[0]);
        assert_ne!(short, visited);
    }
}
