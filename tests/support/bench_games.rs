//! The settings of the engine bench's random games, shared by `benches/engine.rs` and
//! `tests/engine/engine_digest.rs` so that the digest holds exactly the games the bench times.

use jackal::engine::mapgen::SplitMix64;
use jackal::engine::{Pack, PlaneSeats, Players, RetreatDistance, Settings};

/// The classic pack with the default settings.
pub fn classic() -> Settings {
    Settings {
        board_size: 13,
        players: Players::Four,
        tile_pack: Pack::Classic,
        ..Settings::default()
    }
}

/// The full pack with every rule setting drawn from `seed` (the stall guard at its default).
pub fn full(seed: u64) -> Settings {
    let mut rng = SplitMix64::new(seed ^ 0x5E77_1265);
    let mut flag = || rng.below(2) == 1;
    let flags: [bool; 10] = std::array::from_fn(|_| flag());
    let mut rng = SplitMix64::new(seed ^ 0x9A7E);
    Settings {
        board_size: 13,
        players: Players::Four,
        tile_pack: Pack::Full,
        plane_seats: [PlaneSeats::Two, PlaneSeats::One, PlaneSeats::Chosen][rng.pick(3)],
        retreat_distance: [
            RetreatDistance::King,
            RetreatDistance::Taxicab,
            RetreatDistance::Euclid,
        ][rng.pick(3)],
        restriction_kills: flags[0],
        missionary_blocks_attack: flags[1],
        cannonball_kills: flags[2],
        fortress_vs_cannonball: flags[3],
        cannonball_spares_fog: flags[4],
        no_wasted_rum: flags[5],
        no_trapped_rum: flags[6],
        boardgame_caves: flags[7],
        destroying_ships: flags[8],
        friendly_fire: flags[9],
        stall_rounds: 50,
    }
}
