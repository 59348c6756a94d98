//! The engine plays the bench's random games exactly as it always has: a digest of every event,
//! every fatal flag and every final state of 200 fixed games, held to the value recorded before
//! the engine was tuned for speed. A change that alters any rule's outcome, any event or any ☠
//! mark on these games changes the digest; a change of speed alone does not.
//!
//! If a rule is changed on purpose, print the new value (`--nocapture`) and record it here.

use jackal::engine::mapgen::SplitMix64;
use jackal::engine::{Game, Settings};

#[path = "../support/bench_games.rs"]
mod bench_games;
use bench_games::{classic, full};

/// FNV-1a, 64 bits: stable across Rust versions, unlike std's hasher.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// One random game as the bench's flagged run plays it, folded into `digest`: each ply's
/// listing (actions and ☠ marks), the events of the action played, and the final state.
fn play_into(digest: &mut Digest, settings: Settings, seed: u64) {
    let mut game = Game::new(settings, seed).expect("13x13 sets up");
    let mut rng = SplitMix64::new(seed ^ 0xD1CE);
    while !game.is_over() {
        let legal = game.legal_actions();
        let unflagged = game.legal_actions_unflagged();
        assert!(
            legal.iter().map(|l| l.action).eq(unflagged.iter().copied()),
            "both listings hold the same actions in the same order"
        );
        digest.add(format!("{legal:?}").as_bytes());
        let action = legal[rng.pick(legal.len())].action;
        let events = game.play(&action).expect("listed actions are legal");
        digest.add(format!("{events:?}").as_bytes());
    }
    digest.add(serde_json::to_string(&game).expect("serialises").as_bytes());
}

#[test]
fn the_bench_games_play_out_as_recorded() {
    let mut digest = Digest::new();
    for seed in 0..200 {
        play_into(&mut digest, full(seed), seed);
    }
    for seed in 0..50 {
        play_into(&mut digest, classic(), seed);
    }
    println!("digest {:#018x}", digest.0);
    assert_eq!(digest.0, RECORDED, "the games played out differently");
}

/// Recorded on the engine before its speed work.
const RECORDED: u64 = 0xdb6a_0185_fee4_3602;
