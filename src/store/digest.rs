//! Digests that tell the rows the program wrote from rows changed, copied or moved afterwards
//! (by hand, by another program, by a damaged disk): SQLite's integrity check sees broken
//! pages, not a well-formed row with the wrong content.
//!
//! - Each action row carries a **chain** value: SHA-256 over the previous row's chain and this
//!   row's fields. Checking a row needs only its predecessor's chain, so a replay checks the
//!   rows it plays as it goes, and writing one costs one hash and one indexed read.
//! - Each snapshot carries a **checksum**: SHA-256 over its game (id, seed and settings), the
//!   ply, the chain at that ply and the state. Checking it is one hash of what a load reads anyway, whatever the
//!   game's length. A snapshot from another game or another ply, or one whose state was
//!   edited, does not match; nor does one whose log below was rewritten with a recomputed
//!   chain. What a snapshot cannot show in O(1) is an action under it edited *without* its
//!   chain recomputed: that row is read only by a replay that passes it (an earlier position,
//!   `jackal doctor`), which then finds the broken link.
//!
//! SHA-256 (not std's `DefaultHasher`): the values are stored, so the hash must stay the same
//! across Rust versions and platforms. Each kind of digest starts with its own tag, and every
//! variable-length field is preceded by its length, so no two different inputs hash the same
//! bytes.

use crate::id::GameId;
use sha2::{Digest as _, Sha256};

use super::rows::{ActionRow, StoredSnapshot};

/// A SHA-256 value.
pub type Digest = [u8; 32];

const GENESIS_TAG: &[u8] = b"jackal/log-start/1";
const LINK_TAG: &[u8] = b"jackal/action/1";
const SNAPSHOT_TAG: &[u8] = b"jackal/snapshot/1";

/// Feeds fields to a hash so that their boundaries count.
struct Fields(Sha256);

impl Fields {
    fn new(tag: &[u8]) -> Fields {
        let mut f = Fields(Sha256::new());
        f.bytes(tag);
        f
    }

    fn int(&mut self, v: u64) -> &mut Fields {
        self.0.update(v.to_le_bytes());
        self
    }

    fn bytes(&mut self, b: &[u8]) -> &mut Fields {
        self.int(b.len() as u64);
        self.0.update(b);
        self
    }

    fn finish(self) -> Digest {
        self.0.finalize().into()
    }
}

/// The value the first row of game `game`'s chain links to: the game's own, so that a log
/// copied whole from another game breaks at its first row.
pub fn genesis(game: GameId) -> Digest {
    let mut f = Fields::new(GENESIS_TAG);
    f.int(game.get() as u64);
    f.finish()
}

/// The chain value of `row`, following `prev` (the previous row's stored chain; `None` at the
/// start of the log, or after rows written before chains existed).
pub fn link(prev: Option<&[u8]>, row: &ActionRow) -> Digest {
    let start = genesis(row.game_id);
    let mut f = Fields::new(LINK_TAG);
    f.bytes(prev.unwrap_or(&start))
        .int(row.ply.into())
        .int(row.team.into());
    match row.user_id {
        Some(user) => f.int(1).int(user.get()),
        None => f.int(0),
    };
    f.bytes(row.notation.as_bytes())
        .bytes(row.action.as_bytes())
        .bytes(row.events.as_bytes());
    f.finish()
}

/// The game a snapshot belongs to, as its row stores it: a state is only the state of this
/// game if the map was dealt from this seed with these settings (an edited seed or board size
/// must not leave a snapshot of the old map in use).
#[derive(Clone, Copy, Debug)]
pub struct Owner<'a> {
    pub game: GameId,
    pub seed: Option<u64>,
    /// The settings column's text, as stored.
    pub settings: &'a str,
}

/// The checksum of `owner`'s snapshot at `ply`, where the log's chain is `chain` (`None`:
/// ply 0, or a row written before chains existed).
pub fn snapshot_checksum(owner: Owner, ply: u32, chain: Option<&[u8]>, state: &str) -> Digest {
    let start = genesis(owner.game);
    let mut f = Fields::new(SNAPSHOT_TAG);
    f.int(owner.game.get() as u64);
    match owner.seed {
        Some(seed) => f.int(1).int(seed),
        None => f.int(0),
    };
    f.bytes(owner.settings.as_bytes())
        .int(ply.into())
        .bytes(chain.unwrap_or(&start))
        .bytes(state.as_bytes());
    f.finish()
}

/// Whether a stored snapshot may be used for game `game`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotCheck {
    /// Its checksum matches: it is this game's state at its ply, on this log.
    Verified,
    /// Written before checksums existed (migration 0007): nothing vouches for it.
    Unchecked,
    /// Its checksum does not match (another game's or another ply's row, an edited state, a
    /// rewritten log).
    Mismatch,
}

/// Checks `snapshot`, read for `owner`, against its checksum.
pub fn check_snapshot(owner: Owner, snapshot: &StoredSnapshot) -> SnapshotCheck {
    let Some(stored) = &snapshot.checksum else {
        return SnapshotCheck::Unchecked;
    };
    let expected = snapshot_checksum(
        owner,
        snapshot.ply,
        snapshot.chain.as_deref(),
        &snapshot.state,
    );
    if stored.as_slice() == expected {
        SnapshotCheck::Verified
    } else {
        SnapshotCheck::Mismatch
    }
}

/// Follows a game's chain along its log, row after row, from the start or from a snapshot.
#[derive(Clone, Debug)]
pub struct ChainWalk {
    /// The previous row's chain; `None` while the chain has not started (ply 0, or rows
    /// written before chains existed).
    prev: Option<Vec<u8>>,
}

impl ChainWalk {
    /// From ply 0.
    pub fn from_start() -> ChainWalk {
        ChainWalk { prev: None }
    }

    /// After the row whose stored chain is `chain` (a snapshot's, see [`StoredSnapshot`]).
    pub fn after(chain: Option<Vec<u8>>) -> ChainWalk {
        ChainWalk { prev: chain }
    }

    /// Takes the next row, stored with `chain`: false if it does not follow (changed, copied,
    /// or its chain removed: a row without one after a row with one).
    pub fn step(&mut self, row: &ActionRow, chain: Option<&[u8]>) -> bool {
        let follows = match chain {
            None => self.prev.is_none(),
            Some(stored) => stored == link(self.prev.as_deref(), row),
        };
        self.prev = chain.map(<[u8]>::to_vec);
        follows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: i64, ply: u32, action: &str) -> ActionRow {
        ActionRow {
            game_id: GameId::new(game).unwrap(),
            ply,
            team: 1,
            user_id: Some(crate::id::UserId::new(7)),
            notation: "1 d2".into(),
            action: action.into(),
            events: "[]".into(),
            created_at: 0,
        }
    }

    /// The values are stored: they must never change (SHA-256 itself, and one chain value as
    /// first computed).
    #[test]
    fn the_hash_is_stable() {
        let empty: Digest = Sha256::digest(b"").into();
        assert_eq!(
            hex(&empty),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&link(None, &row(1, 1, "{}"))),
            "0b60cfcc975af286ec99cc7b1f56d826084a665291084e1be12f800235324236"
        );
        assert_ne!(link(None, &row(1, 1, "{}")), link(None, &row(2, 1, "{}")));
    }

    fn hex(d: &[u8]) -> String {
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn a_changed_row_breaks_the_chain() {
        let rows = [row(1, 1, "a"), row(1, 2, "b"), row(1, 3, "c")];
        let mut chains = Vec::new();
        let mut prev: Option<Vec<u8>> = None;
        for r in &rows {
            let c = link(prev.as_deref(), r).to_vec();
            chains.push(c.clone());
            prev = Some(c);
        }
        let walk = |rows: &[ActionRow], chains: &[Option<Vec<u8>>]| {
            let mut w = ChainWalk::from_start();
            rows.iter()
                .zip(chains)
                .position(|(r, c)| !w.step(r, c.as_deref()))
        };
        let stored: Vec<_> = chains.iter().cloned().map(Some).collect();
        assert_eq!(walk(&rows, &stored), None);
        let mut edited = rows.clone();
        edited[1].action = "x".into();
        assert_eq!(walk(&edited, &stored), Some(1));
        // A row without a chain after one with: removed, not written before chains.
        let mut cut = stored.clone();
        cut[2] = None;
        assert_eq!(walk(&rows, &cut), Some(2));
        // Rows from before chains existed, then chained ones: the chain starts there.
        let old_then_new = [None, Some(link(None, &rows[1]).to_vec())];
        assert_eq!(walk(&rows[..2], &old_then_new), None);
    }

    #[test]
    fn a_snapshot_is_checked_against_its_game_ply_log_and_state() {
        let chain = link(None, &row(1, 1, "a")).to_vec();
        let owner = |game, seed, settings| Owner {
            game: GameId::new(game).unwrap(),
            seed: Some(seed),
            settings,
        };
        let sum = Some(snapshot_checksum(owner(1, 42, "{s}"), 1, Some(&chain), "x"));
        let snap = |ply, state: &str, chain: &[u8], checksum: Option<Digest>| StoredSnapshot {
            ply,
            state: state.into(),
            checksum: checksum.map(|c| c.to_vec()),
            chain: Some(chain.to_vec()),
        };
        use SnapshotCheck::*;
        let cases = [
            (owner(1, 42, "{s}"), snap(1, "x", &chain, sum), Verified),
            (owner(2, 42, "{s}"), snap(1, "x", &chain, sum), Mismatch),
            (owner(1, 43, "{s}"), snap(1, "x", &chain, sum), Mismatch),
            (owner(1, 42, "{t}"), snap(1, "x", &chain, sum), Mismatch),
            (owner(1, 42, "{s}"), snap(2, "x", &chain, sum), Mismatch),
            (owner(1, 42, "{s}"), snap(1, "y", &chain, sum), Mismatch),
            (owner(1, 42, "{s}"), snap(1, "x", b"log", sum), Mismatch),
            (owner(1, 42, "{s}"), snap(1, "x", &chain, None), Unchecked),
        ];
        for (i, (owner, snapshot, expected)) in cases.into_iter().enumerate() {
            assert_eq!(check_snapshot(owner, &snapshot), expected, "case {i}");
        }
    }
}
