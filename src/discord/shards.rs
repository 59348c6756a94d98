//! Which of the bot's gateway shards this process runs (`SHARDS`). Discord splits a bot's
//! servers into shards: server `g` is on shard `(g >> 22) % total`, and each shard is one
//! gateway connection. A bot on a few servers runs one; one on thousands runs many, over
//! several processes that share a PostgreSQL database, each with its own range.

use std::fmt;
use std::ops::RangeInclusive;

/// Discord's ceiling on a bot's shard count is far lower; this only keeps a typo from asking
/// for millions of connections.
pub const MAX_SHARDS: u32 = 4096;

/// Shards `first..=last` of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl ShardRange {
    /// Every shard of `total`.
    pub fn all(total: u32) -> ShardRange {
        ShardRange {
            first: 0,
            last: total.max(1) - 1,
            total: total.max(1),
        }
    }

    /// `a-b/n` (shards a to b of n) or `a/n` (shard a of n); `None` for anything else,
    /// including a range that is empty or reaches past the total.
    pub fn parse(text: &str) -> Option<ShardRange> {
        let (range, total) = text.trim().split_once('/')?;
        let number = |t: &str| t.trim().parse::<u32>().ok();
        let total = number(total)?;
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(range)?, number(range)?),
        };
        (first <= last && last < total && total <= MAX_SHARDS).then_some(ShardRange {
            first,
            last,
            total,
        })
    }

    /// Whether this is every shard there is (a process that needs no other beside it).
    pub fn is_whole(&self) -> bool {
        self.first == 0 && self.last + 1 == self.total
    }

    pub fn ids(&self) -> RangeInclusive<u32> {
        self.first..=self.last
    }

    /// The shard a server's events come on: Discord's rule.
    pub fn shard_of(guild: u64, total: u32) -> u32 {
        ((guild >> 22) % u64::from(total.max(1))) as u32
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}/{}", self.first, self.total)
        } else {
            write!(f, "{}-{}/{}", self.first, self.last, self.total)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_as_written() {
        let r = |first, last, total| Some(ShardRange { first, last, total });
        assert_eq!(ShardRange::parse("0-3/8"), r(0, 3, 8));
        assert_eq!(ShardRange::parse(" 4-7 / 8 "), r(4, 7, 8));
        assert_eq!(ShardRange::parse("2/8"), r(2, 2, 8));
        assert_eq!(ShardRange::parse("0/1"), r(0, 0, 1));
        for bad in [
            "",
            "3",
            "0-3",
            "3-1/8",
            "0-8/8",
            "8/8",
            "a-b/c",
            "-1/2",
            "0/0",
            "0-1/99999",
        ] {
            assert_eq!(ShardRange::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_range_shows_as_it_is_written() {
        for text in ["0-3/8", "2/8", "0/1"] {
            assert_eq!(ShardRange::parse(text).unwrap().to_string(), text);
        }
        assert!(ShardRange::parse("0-7/8").unwrap().is_whole());
        assert!(!ShardRange::parse("0-6/8").unwrap().is_whole());
        assert_eq!(ShardRange::all(0), ShardRange::all(1));
    }

    #[test]
    fn a_server_is_on_the_shard_discord_says() {
        // The shard is the id's timestamp part (its bits from 22 up) modulo the total; the
        // low bits (worker, process, increment) do not count.
        let guild = (12_345 << 22) | 0x3f_ffff;
        assert_eq!(ShardRange::shard_of(guild, 8), 12_345 % 8);
        assert_eq!(ShardRange::shard_of(guild, 1), 0);
        assert_eq!(ShardRange::shard_of(guild, 0), 0, "no shards counts as one");
    }
}
