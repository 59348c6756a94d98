//! The replay of a whole game: `cargo bench --bench replay`.
//!
//! A 13×13, four-player game on the full pack played for 300 random legal moves (seeded),
//! drawn as the replay GIF the bot sends at a game's end and on `/jackal replay`: every step's
//! board at half size over one palette, each frame only what changed. Timed on one thread,
//! three runs, the best kept. Targets: ≤ 4 MiB, and ≤ 3 s on one core.

use std::time::{Duration, Instant};

use jackal::engine::mapgen::SplitMix64;
use jackal::engine::{Game, Pack, Players, Settings};
use jackal::render::replay::{self, Step};
use jackal::render::{self, RenderOptions};

const MOVES: usize = 300;
/// Discord's attachment limit without boosts.
const LIMIT: usize = 10 * 1024 * 1024;

fn main() {
    let settings = Settings {
        tile_pack: Pack::Full,
        players: Players::Four,
        ..Settings::default()
    };
    let mut game = Game::new(settings, 11).expect("the full pack deals");
    let mut rng = SplitMix64::new(11);
    let mut steps = vec![Step {
        position: game.clone(),
        path: Vec::new(),
    }];
    while steps.len() <= MOVES && !game.is_over() {
        let legal = game.legal_actions();
        if legal.is_empty() {
            break;
        }
        let action = legal[rng.pick(legal.len())].action;
        let events = game.play(&action).expect("a listed action is accepted");
        steps.push(Step {
            position: game.clone(),
            path: render::path_of(&events),
        });
    }
    let mut best = Duration::MAX;
    let mut bytes = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let gif = replay::replay_gif(&steps, &RenderOptions::default(), LIMIT).expect("the GIF");
        best = best.min(t.elapsed());
        bytes = gif.len();
        if let Ok(path) = std::env::var("JACKAL_REPLAY_OUT") {
            std::fs::write(path, &gif).expect("write the GIF");
        }
    }
    println!(
        "replay of {} steps (13×13, 4 players, full pack): {:.2} MiB (target ≤ 4 MiB) in {:.2} s \
         on one thread (target ≤ 3 s)",
        steps.len() - 1,
        bytes as f64 / (1024.0 * 1024.0),
        best.as_secs_f64()
    );
}
