//! Items and cargo (RULES §7): small multisets of the five item kinds.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Item kinds, in the canonical order of the notation (SCENARIOS S-NOT-2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Item {
    Cart,
    Coin,
    Bar,
    Ball,
    Boat,
}

impl Item {
    pub const ALL: [Item; 5] = [Item::Cart, Item::Coin, Item::Bar, Item::Ball, Item::Boat];

    pub fn word(self) -> &'static str {
        match self {
            Item::Cart => "cart",
            Item::Coin => "coin",
            Item::Bar => "bar",
            Item::Ball => "ball",
            Item::Boat => "boat",
        }
    }

    pub fn parse(word: &str) -> Option<Item> {
        Item::ALL.into_iter().find(|i| i.word() == word)
    }

    /// Points of gold (R-SCORE-1).
    pub fn points(self) -> u32 {
        match self {
            Item::Coin => 1,
            Item::Bar => 3,
            _ => 0,
        }
    }
}

/// A multiset of items: how many of each kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, PartialOrd, Ord)]
pub struct Items([u8; 5]);

impl Items {
    pub const NONE: Items = Items([0; 5]);

    pub fn one(item: Item) -> Items {
        let mut s = Items::NONE;
        s.add(item, 1);
        s
    }

    pub fn count(&self, item: Item) -> u8 {
        self.0[item as usize]
    }

    pub fn add(&mut self, item: Item, n: u8) {
        self.0[item as usize] = self.0[item as usize].saturating_add(n);
    }

    pub fn add_all(&mut self, other: Items) {
        for i in Item::ALL {
            self.add(i, other.count(i));
        }
    }

    /// Removes `other`; false (and no change) when `other` is not contained.
    pub fn remove_all(&mut self, other: Items) -> bool {
        if !self.contains(other) {
            return false;
        }
        for i in Item::ALL {
            self.0[i as usize] -= other.count(i);
        }
        true
    }

    pub fn contains(&self, other: Items) -> bool {
        Item::ALL
            .into_iter()
            .all(|i| self.count(i) >= other.count(i))
    }

    pub fn is_empty(&self) -> bool {
        *self == Items::NONE
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|n| *n as usize).sum()
    }

    pub fn gold_points(&self) -> u32 {
        Item::ALL
            .into_iter()
            .map(|i| i.points() * self.count(i) as u32)
            .sum()
    }

    pub fn has_gold(&self) -> bool {
        self.count(Item::Coin) > 0 || self.count(Item::Bar) > 0
    }

    /// Without the gold: what may lie aboard a vessel (R-CARGO-7).
    pub fn without_gold(&self) -> Items {
        let mut s = *self;
        s.0[Item::Coin as usize] = 0;
        s.0[Item::Bar as usize] = 0;
        s
    }

    /// Within one carrier's capacity (R-CARGO-2): one item, or a wheelbarrow plus up to two
    /// other items that are not wheelbarrows.
    pub fn within_capacity(&self) -> bool {
        match self.count(Item::Cart) {
            0 => self.len() <= 1,
            1 => self.len() <= 3,
            _ => false,
        }
    }

    /// Items one at a time, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = Item> + '_ {
        Item::ALL
            .into_iter()
            .flat_map(move |i| std::iter::repeat_n(i, self.count(i) as usize))
    }

    /// Every selection from `self` a carrier can take, the empty one first (R-CARGO-3).
    pub fn selections(&self) -> Vec<Items> {
        let mut out = Vec::new();
        self.each_selection(|s| out.push(s));
        out
    }

    /// Calls `f` with every selection, the empty one first, without allocating.
    pub fn each_selection(&self, mut f: impl FnMut(Items)) {
        f(Items::NONE);
        for i in Item::ALL {
            if self.count(i) > 0 {
                f(Items::one(i));
            }
        }
        if self.count(Item::Cart) == 0 {
            return;
        }
        let others = Item::ALL[1..]
            .iter()
            .copied()
            .filter(|i| self.count(*i) > 0);
        for (a, x) in others.clone().enumerate() {
            let mut s = Items::one(Item::Cart);
            s.add(x, 1);
            f(s);
            for y in others.clone().skip(a) {
                let mut t = s;
                t.add(y, 1);
                if self.contains(t) {
                    f(t);
                }
            }
        }
    }

    /// Item words in canonical order, space separated (`cart coin coin`).
    pub fn words(&self) -> String {
        self.iter().map(Item::word).collect::<Vec<_>>().join(" ")
    }

    /// The `expect items` list form: `coin 2, bar`.
    pub fn list(&self) -> String {
        Item::ALL
            .into_iter()
            .filter(|i| self.count(*i) > 0)
            .map(|i| match self.count(i) {
                1 => i.word().to_string(),
                n => format!("{} {n}", i.word()),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Debug for Items {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.list())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_r_cargo_2() {
        let mut s = Items::NONE;
        s.add(Item::Coin, 2);
        assert!(!s.within_capacity());
        s.add(Item::Cart, 1);
        assert!(s.within_capacity());
        s.add(Item::Bar, 1);
        assert!(!s.within_capacity());
    }

    #[test]
    fn selections_are_distinct_and_fit() {
        let mut pool = Items::NONE;
        pool.add(Item::Cart, 1);
        pool.add(Item::Coin, 3);
        pool.add(Item::Bar, 1);
        let sel = pool.selections();
        let mut sorted = sel.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), sel.len());
        assert!(sel.iter().all(|s| s.within_capacity() && pool.contains(*s)));
        // none, cart, coin, bar, cart+coin, cart+coin+coin, cart+coin+bar, cart+bar
        assert_eq!(sel.len(), 8);
    }
}
