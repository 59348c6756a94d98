//! Engine throughput: `cargo bench --bench engine`.
//!
//! - `random_games/13x13_classic_4p`: complete games on 13×13, classic pack, 4 players, played
//!   by a deterministic random player (uniform among legal actions, seeded). One iteration plays
//!   the same batch of games, so the work per iteration is fixed; the throughput line reads in
//!   games per second. Target: ≥ 1,000 games/s on one core.
//! - `legal_actions/13x13_classic_4p_midgame`: `legal_actions()` on a fixed mid-game position
//!   (13×13, classic, 4 players, about 60 random plies from a fixed seed, no pending choice).
//!   Target: median ≤ 5 µs.

use jackal::engine::mapgen::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jackal::engine::{Game, Pack, Players, Settings};

fn settings() -> Settings {
    Settings {
        board_size: 13,
        players: Players::Four,
        tile_pack: Pack::Classic,
        ..Settings::default()
    }
}

/// One random legal action, played.
fn random_ply(game: &mut Game, rng: &mut SplitMix64) {
    let legal = game.legal_actions();
    let action = legal[rng.pick(legal.len())].action;
    game.play(&action).expect("listed actions are legal");
}

/// A complete game from `seed`; returns its number of plies.
fn random_game(seed: u64) -> usize {
    let mut game = Game::new(settings(), seed).expect("classic 13x13 sets up");
    let mut rng = SplitMix64::new(seed ^ 0xD1CE);
    let mut plies = 0;
    while !game.is_over() {
        random_ply(&mut game, &mut rng);
        plies += 1;
    }
    plies
}

/// The fixed mid-game position: 60 random plies from seed 2024, then on until no choice is
/// pending.
fn midgame() -> Game {
    let mut game = Game::new(settings(), 2024).expect("classic 13x13 sets up");
    let mut rng = SplitMix64::new(2024);
    let mut plies = 0;
    while plies < 60 || game.pending().is_some() {
        assert!(!game.is_over(), "the mid-game position must be in play");
        random_ply(&mut game, &mut rng);
        plies += 1;
    }
    game
}

/// Games per iteration: enough to average over short and long games.
const BATCH: u64 = 16;

fn bench_games(c: &mut Criterion) {
    let plies: usize = (0..BATCH).map(random_game).sum();
    println!(
        "random_games: {BATCH} games per iteration, {plies} plies ({} per game)",
        plies / BATCH as usize
    );
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(BATCH));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("13x13_classic_4p", |b| {
        b.iter(|| {
            for seed in 0..BATCH {
                black_box(random_game(black_box(seed)));
            }
        })
    });
    group.finish();
}

fn bench_legal_actions(c: &mut Criterion) {
    let game = midgame();
    println!(
        "legal_actions: mid-game position at ply {}, team {} to move, {} legal actions",
        game.ply(),
        game.turn(),
        game.legal_actions().len()
    );
    let mut group = c.benchmark_group("legal_actions");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("13x13_classic_4p_midgame", |b| {
        b.iter(|| black_box(&game).legal_actions())
    });
    group.finish();
}

criterion_group!(benches, bench_games, bench_legal_actions);
criterion_main!(benches);
