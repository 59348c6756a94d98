//! The board picture's cost: render + encode time and PNG size for a busy 13×13
//! mid-game. Targets, checked in the same run: the PNG ≤ 100 KiB, and render + encode no
//! slower than uploading that PNG at 10 Mbit/s (ms ≤ KiB × 0.8).
//!
//! `cargo bench --bench render`

use jackal::engine::mapgen::SplitMix64;
use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use jackal::engine::{Game, Pack, Settings};
use jackal::render::{self, RenderOptions};

/// A 4-player full-pack game after up to `plies` random legal actions, and the last path.
fn midgame(seed: u64, plies: usize) -> (Game, Vec<jackal::engine::Cell>) {
    let settings = Settings {
        tile_pack: Pack::Full,
        players: jackal::engine::Players::Four,
        ..Settings::default()
    };
    let mut game = Game::new(settings, seed).expect("the full pack deals");
    let mut rng = SplitMix64::new(seed);
    let mut path = Vec::new();
    for _ in 0..plies {
        let legal = game.legal_actions();
        if legal.is_empty() || game.is_over() {
            break;
        }
        let a = legal[rng.pick(legal.len())].action;
        let events = game.play(&a).expect("a listed action is accepted");
        let p = render::path_of(&events);
        if !p.is_empty() {
            path = p;
        }
    }
    (game, path)
}

fn bench(c: &mut Criterion) {
    let (game, path) = midgame(7, 120);
    let highlights = game
        .legal_actions()
        .iter()
        .filter_map(|a| match a.action {
            jackal::engine::Action::Move { to, .. } => Some(to),
            _ => None,
        })
        .collect();
    let options = RenderOptions {
        highlights,
        path,
        ..RenderOptions::default()
    };
    // Warm the icon cache: rasterising happens once per process, not per picture.
    let png = render::render(&game, &options);

    let runs = 30;
    let t = Instant::now();
    for _ in 0..runs {
        black_box(render::render(black_box(&game), &options));
    }
    let ms = t.elapsed().as_secs_f64() * 1000.0 / runs as f64;
    let t = Instant::now();
    for _ in 0..runs {
        black_box(render::draw(black_box(&game), &options));
    }
    let draw_ms = t.elapsed().as_secs_f64() * 1000.0 / runs as f64;
    let img = render::draw(&game, &options);
    let t = Instant::now();
    for _ in 0..runs {
        black_box(render::encode::quantize(black_box(&img)).unwrap());
    }
    let quantize_ms = t.elapsed().as_secs_f64() * 1000.0 / runs as f64;
    let kib = png.len() as f64 / 1024.0;
    let budget = kib * 0.8;
    println!(
        "board picture 13x13 mid-game (ply {}): {kib:.1} KiB (target <= 100), render+encode \
         {ms:.1} ms (draw {draw_ms:.1} + quantize {quantize_ms:.1} + deflate {:.1}); budget KiB x \
         0.8 = {budget:.1} ms: {}",
        game.ply(),
        ms - draw_ms - quantize_ms,
        if kib <= 100.0 && ms <= budget {
            "OK"
        } else {
            "OVER"
        }
    );

    c.bench_function("render+encode 13x13 mid-game", |b| {
        b.iter(|| render::render(black_box(&game), &options))
    });
    c.bench_function("draw only 13x13 mid-game", |b| {
        b.iter(|| render::draw(black_box(&game), &options))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
