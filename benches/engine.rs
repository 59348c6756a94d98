//! Engine throughput: `cargo bench --bench engine`.
//!
//! - `random_games/13x13_full_4p`: complete games on 13×13, the `full` pack (every expansion
//!   tile, unit and item), 4 players, every rule setting of RULES §20 drawn per game from its
//!   seed, played by a deterministic random player (uniform among legal actions, seeded). One
//!   iteration plays the same batch of games, so the work per iteration is fixed; the
//!   throughput line reads in games per second. Target: ≥ 1,000 games/s on one core.
//! - `random_games/13x13_classic_4p`: the same with the classic pack and default settings, for
//!   comparison.
//! - `random_games/13x13_full_4p_flagged`: the full-pack games with each ply's actions listed
//!   as a player is shown them (`legal_actions()`, each judged for ☠), for comparison: the
//!   same games, since both listings hold the same actions in the same order.
//! - `legal_actions/13x13_{full,classic}_4p_midgame`: `legal_actions()` on a fixed mid-game
//!   position (13×13, 4 players, about 60 random plies from a fixed seed, no pending choice).
//!   Target: median ≤ 5 µs.
//!
//! `benches/callgrind.sh` counts the instructions per game of the same batches (the
//! `ENGINE_COUNT` mode of this binary); the figures before and after the speed work are in
//! `benches/NOTES.md`.

use jackal::engine::mapgen::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group};
use jackal::engine::{Game, Settings};

#[path = "../tests/support/bench_games.rs"]
mod bench_games;
use bench_games::{classic, full};

/// One random legal action, played. A uniform player needs no ☠ marks, so it lists the
/// actions as a playout does (`legal_actions_unflagged`: the same actions in the same order,
/// without judging which are fatal); `random_games_flagged` measures the listing a player
/// is shown.
fn random_ply(game: &mut Game, rng: &mut SplitMix64) {
    let legal = game.legal_actions_unflagged();
    let action = legal[rng.pick(legal.len())];
    game.play(&action).expect("listed actions are legal");
}

/// [`random_ply`] on the flagged listing.
fn random_ply_flagged(game: &mut Game, rng: &mut SplitMix64) {
    let legal = game.legal_actions();
    let action = legal[rng.pick(legal.len())].action;
    game.play(&action).expect("listed actions are legal");
}

type Ply = fn(&mut Game, &mut SplitMix64);

/// A complete game from `seed`, each ply played by `ply`; returns its number of plies.
fn random_game(settings: Settings, seed: u64, ply: Ply) -> usize {
    let mut game = Game::new(settings, seed).expect("13x13 sets up");
    let mut rng = SplitMix64::new(seed ^ 0xD1CE);
    let mut plies = 0;
    while !game.is_over() {
        ply(&mut game, &mut rng);
        plies += 1;
    }
    plies
}

/// The fixed mid-game position: 60 random plies from seed 2024, then on until no choice is
/// pending.
fn midgame(settings: Settings) -> Game {
    let mut game = Game::new(settings, 2024).expect("13x13 sets up");
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
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(BATCH));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    type SettingsOf = fn(u64) -> Settings;
    let runs: [(&str, SettingsOf, Ply); 3] = [
        ("13x13_full_4p", full, random_ply),
        ("13x13_classic_4p", |_| classic(), random_ply),
        ("13x13_full_4p_flagged", full, random_ply_flagged),
    ];
    for (name, settings, ply) in runs {
        let plies: usize = (0..BATCH).map(|s| random_game(settings(s), s, ply)).sum();
        println!(
            "random_games/{name}: {BATCH} games per iteration, {plies} plies ({} per game)",
            plies / BATCH as usize
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                for seed in 0..BATCH {
                    black_box(random_game(settings(seed), black_box(seed), ply));
                }
            })
        });
    }
    group.finish();
}

fn bench_legal_actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_actions");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (name, settings) in [
        ("13x13_full_4p_midgame", full(2024)),
        ("13x13_classic_4p_midgame", classic()),
    ] {
        let game = midgame(settings);
        println!(
            "legal_actions/{name}: ply {}, team {} to move, {} legal actions",
            game.ply(),
            game.turn(),
            game.legal_actions().len()
        );
        group.bench_function(name, |b| b.iter(|| black_box(&game).legal_actions()));
    }
    group.finish();
}

criterion_group!(benches, bench_games, bench_legal_actions);

/// Plays the batch of one run once (`full`, `classic` or `flagged`) and prints its plies and
/// a digest of the final states: what `benches/callgrind.sh` counts instructions of.
#[inline(never)]
fn count_run(run: &str) {
    let (settings, ply): (fn(u64) -> Settings, Ply) = match run {
        "full" => (full, random_ply),
        "classic" => (|_| classic(), random_ply),
        "flagged" => (full, random_ply_flagged),
        _ => panic!("ENGINE_COUNT: full, classic or flagged, not {run:?}"),
    };
    let plies = played_batch(settings, ply);
    println!("{run}: {BATCH} games, {plies} plies");
}

/// The batch itself, apart so that callgrind can count this function alone.
#[inline(never)]
fn played_batch(settings: fn(u64) -> Settings, ply: Ply) -> usize {
    (0..BATCH)
        .map(|seed| random_game(settings(seed), black_box(seed), ply))
        .sum()
}

fn main() {
    // `ENGINE_COUNT=<run>`: one pass over a batch, no timing, for an instruction count.
    if let Ok(run) = std::env::var("ENGINE_COUNT") {
        count_run(&run);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
